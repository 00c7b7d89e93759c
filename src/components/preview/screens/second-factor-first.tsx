// Owns the answer to a person the site's second-factor rule covers who has no factor yet
// (issue 28, second hostile pass): every preview screen but the security screen is this 403, so
// a password alone — the thing the rule distrusts — opens no draft, history or library.
import 'server-only';
import { setDocumentStatus } from '../../../lib/http/request-context';
import { SECURITY_SCREEN } from '../../../lib/http/routes';
import { KeptTyped } from '../kept-typed';

export const SECOND_FACTOR_FIRST_WORDS =
  'This site asks people in your role for a second factor. Until you add a passkey or set up an authenticator app, the preview shows you nothing else.';

export function SecondFactorFirstScreen() {
  setDocumentStatus(403);
  return (
    <>
      <title>Set up a second factor first · Folio preview</title>
      <h1>Set up a second factor first</h1>
      <p role="alert">{SECOND_FACTOR_FIRST_WORDS}</p>
      {/* A form from a tab opened before the rule, posted without JavaScript: its text back. */}
      <KeptTyped>
        <strong>
          Nothing was saved: this site asks people in your role for a second factor first.
        </strong>{' '}
        What you typed is below: copy it, set one up, and paste it back.
      </KeptTyped>
      <p>
        <a href={SECURITY_SCREEN}>Set one up now</a>
      </p>
    </>
  );
}
