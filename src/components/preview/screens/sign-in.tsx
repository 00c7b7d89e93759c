// Owns the screen a signed-out visitor gets anywhere under /preview: the sign-in form (401),
// and what they typed, when a form they posted found their session ended.
import 'server-only';
import { requestContext, setDocumentStatus } from '../../../lib/http/request-context';
import { isValidSlug, PREVIEW_DASHBOARD, previewPath } from '../../../lib/http/routes';
import { SignInForm } from '../sign-in-form';
import type { ScreenProps } from './asked';

export function SignInScreen({ asked: { slug, params } }: ScreenProps) {
  // 401, unless the sign-in that led here already said why otherwise (a database that could
  // not check the password is a 503, not a wrong password).
  if (requestContext().status === undefined) setDocumentStatus(401);
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
 * editor asked, their share links were revoked. The address says only which (no count: a
 * hand-made link could then tell an editor a number that never happened).
 */
function SignedOutNotice({ params }: { params: URLSearchParams }) {
  if (params.get('notice') !== 'signed-out-everywhere') return null;
  return (
    <p role="status" className="notice">
      Signed out everywhere: every session of yours has ended.
      {params.get('links') === 'revoked'
        ? ' Any share links you made were revoked.'
        : ' Your share links still work.'}
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
