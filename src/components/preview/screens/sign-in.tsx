// Owns the screen a signed-out visitor gets anywhere under /preview: the sign-in form (401),
// and what they typed, when a form they posted found their session ended.
import 'server-only';
import { startSignInOver } from '../../../lib/editor/actions/security';
import { pendingSecondStep } from '../../../lib/editors/session';
import { requestContext, setDocumentStatus } from '../../../lib/http/request-context';
import { isValidSlug, PREVIEW_DASHBOARD, previewPath } from '../../../lib/http/routes';
import { KeptTyped } from '../kept-typed';
import { PasskeySignIn } from '../passkey-sign-in';
import { SecondStepForm } from '../second-step-form';
import { SignInForm } from '../sign-in-form';
import type { ScreenProps } from './asked';

export async function SignInScreen({ asked: { slug, params } }: ScreenProps) {
  // 401, unless the sign-in that led here already said why otherwise (a database that could
  // not check the password is a 503, not a wrong password).
  if (requestContext().status === undefined) setDocumentStatus(401);
  const page = slug && isValidSlug(slug) ? previewPath(slug) : PREVIEW_DASHBOARD;
  // The password was right and a second factor is asked (issue 28): that step, on any address.
  const pending = await pendingSecondStep();
  if (pending) return <SecondStep pending={pending} />;
  return (
    <>
      <title>Sign in · Folio preview</title>
      <SignedOutNotice params={params} />
      <SignInForm next={slug && params.has('edit') ? `${page}?edit` : page} />
      {/* A form posted after the editor's session ended: the sign-in form replaced it. */}
      <KeptTyped>
        <strong>Your session had ended, so nothing was saved.</strong> What you typed is below: copy
        it, sign in, and paste it back.
      </KeptTyped>
    </>
  );
}

/**
 * What "Sign out everywhere" did (its action lands here): the sessions ended and, when the
 * editor asked, their share links were revoked. The address says only which (no count: a
 * hand-made link could then tell an editor a number that never happened).
 */
function SignedOutNotice({ params }: { params: URLSearchParams }) {
  if (params.get('notice') === 'second-step-ended')
    return (
      <p role="alert" className="form-error">
        That sign-in has ended (it waited too long, was started over, or had too many wrong codes):
        nothing was signed in. Sign in again with your email and password.
      </p>
    );
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

/** The second step of a password sign-in: the app's code or a recovery code, or a passkey. */
function SecondStep({
  pending,
}: {
  pending: NonNullable<Awaited<ReturnType<typeof pendingSecondStep>>>;
}) {
  return (
    <>
      <title>Second step · Folio preview</title>
      <section className="card sign-in second-step" aria-labelledby="second-step-title">
        <h1 id="second-step-title">Confirm it is you</h1>
        {pending.factors.totp ? (
          <SecondStepForm email={pending.email} totp />
        ) : (
          <p>
            Signing in as <strong>{pending.email}</strong>. Use one of your passkeys.
          </p>
        )}
        {pending.factors.passkeys > 0 ? (
          <PasskeySignIn
            next={pending.next}
            label={pending.factors.totp ? 'Use a passkey instead' : 'Use a passkey'}
          />
        ) : null}
        <form action={startSignInOver} className="inline-form">
          <button type="submit">Start over</button>
        </form>
      </section>
    </>
  );
}
