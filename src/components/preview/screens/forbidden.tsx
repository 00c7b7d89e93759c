// Owns the answer to a screen its person's role does not open (issue 28): a 403 that says what
// they cannot do and whom to ask, in the editors' frame, so the way back is one click away.
import 'server-only';
import { setDocumentStatus } from '../../../lib/http/request-context';
import type { ScreenProps } from './asked';

export function ForbiddenScreen({ message }: ScreenProps & { message: string }) {
  setDocumentStatus(403);
  return (
    <>
      <title>Not for your role · Folio preview</title>
      <h1>Not for your role</h1>
      <p role="alert">{message}</p>
      <p>
        <a href="/preview">Back to the pages</a>
      </p>
    </>
  );
}
