// Owns the screen a signed-out visitor gets anywhere under /preview: the sign-in form (401),
// and what they typed, when a form they posted found their session ended.
import 'server-only';
import { requestContext, setDocumentStatus } from '../../../lib/http/request-context';
import { isValidSlug, PREVIEW_DASHBOARD, previewPath } from '../../../lib/http/routes';
import { SignInForm } from '../sign-in-form';
import type { ScreenProps } from './asked';

export function SignInScreen({ asked: { slug, params } }: ScreenProps) {
  setDocumentStatus(401);
  const page = slug && isValidSlug(slug) ? previewPath(slug) : PREVIEW_DASHBOARD;
  return (
    <>
      <title>Sign in · Folio preview</title>
      <SignedOutNotice params={params} />
      <SignInForm next={slug && params.has('edit') ? `${page}?edit` : page} />
      <KeptTyped />
    </>
  );
}

/**
 * What "Sign out everywhere" did (its action lands here): the sessions ended and, when the
 * editor asked, how many of their share links were revoked. Only fixed words and digits are
 * shown, so a hand-made address can say nothing else.
 */
function SignedOutNotice({ params }: { params: URLSearchParams }) {
  if (params.get('notice') !== 'signed-out-everywhere') return null;
  const revoked = params.get('revoked');
  const count = revoked !== null && /^\d{1,6}$/.test(revoked) ? Number(revoked) : null;
  return (
    <p role="status" className="notice">
      Signed out everywhere: every session of yours has ended.
      {count === null
        ? ' Your share links still work.'
        : ` ${count === 1 ? '1 share link' : `${count} share links`} you made ${count === 1 ? 'was' : 'were'} revoked.`}
    </p>
  );
}

/**
 * A form posted after the editor's session ended (without JavaScript): nothing was saved, and
 * the sign-in page replaced their form, so what they typed is handed back here to copy.
 */
function KeptTyped() {
  const { request, keptText } = requestContext();
  if (request.method !== 'POST' || !keptText) return null;
  return (
    <section className="card kept-typed" aria-label="What you typed">
      <p>
        <strong>Your session had ended, so nothing was saved.</strong> What you typed is below: copy
        it, sign in, and paste it back.
      </p>
      {keptText.map(({ name, value }) => (
        <label key={name}>
          {/* One text node: the label reads (and is found) as one word, not split by React. */}
          {`${name[0]?.toUpperCase() ?? ''}${name.slice(1)}`}
          <textarea readOnly rows={Math.min(18, value.split('\n').length + 1)} value={value} />
        </label>
      ))}
    </section>
  );
}
