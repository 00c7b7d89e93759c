'use server';
// Owns the editors' proof that a server-side error reaches the log and Sentry (test-errors.tsx).
import { unstable_redirect as redirect } from 'waku/router/server';
import { siteOrigin } from '../../http/site-url';
import { isEditorRefused, requireEditor } from '../guard';

/** Editor-only: proves that a server-side error reaches the log and Sentry with its digest. */
export async function sendServerTestError(): Promise<void> {
  try {
    await requireEditor();
  } catch (error) {
    if (isEditorRefused(error) && error.refusal.reason === 'signed-out')
      redirect(new URL('/preview', siteOrigin()), 303);
    // Busy or out of reach: the database's own error, answered as every other page answers it.
    throw isEditorRefused(error) ? error.cause : error;
  }
  throw new Error('Folio test error from the server (sent on purpose from the preview)');
}
