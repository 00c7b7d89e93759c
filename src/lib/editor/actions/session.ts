'use server';
// Owns signing in and out (sign-in-form.tsx, the preview layout's button): the two editor
// actions that need no editor, so they read their forms with the shared schemas and no guard.
import { unstable_redirect as redirect } from 'waku/router/server';
import { endEditorSession, signInEditor } from '../../editors/session';
import { siteOrigin } from '../../http/site-url';
import { readForm, refuseForm } from '../action';
import { type SignInState, signInFormSchema, signOutFormSchema } from '../forms';
import { landingAfterSignIn, safeNext } from '../landing';

export async function signIn(_previous: SignInState, input: FormData): Promise<SignInState> {
  const { email, password, next } = readForm(signInFormSchema, input);
  const outcome = await signInEditor(email, password, safeNext(next));
  if (!outcome.ok) {
    // Nothing was checked: a 503 like every answer the database could not give.
    if (outcome.reason === 'busy' || outcome.reason === 'unavailable') refuseForm(503);
    if (outcome.reason === 'throttled') {
      const minutes = Math.ceil(outcome.retryAfterSeconds / 60);
      return { email, error: `Too many attempts. Try again in ${minutes} minute(s).` };
    }
    if (outcome.reason === 'busy')
      return { email, error: 'Folio is busy. Nothing was checked; try again in a moment.' };
    if (outcome.reason === 'unavailable')
      return {
        email,
        error:
          'Folio cannot reach its database right now. Nothing was checked; try again in a moment.',
      };
    // The password was right; the second step (a code, or a passkey) is asked on the page.
    if (outcome.reason === 'second-factor') redirect(new URL(safeNext(next), siteOrigin()), 303);
    if (outcome.reason === 'suspended')
      return {
        email,
        error: 'This account is suspended. Ask an Administrator of this site to restore it.',
      };
    // The same words whether or not the email has an account.
    return { email, error: 'That email and password do not match an editor account.' };
  }
  // An absolute URL makes the browser load the page anew (with JavaScript too), so the page
  // is rendered with the new cookie rather than inside this cookie-less action request.
  // Someone the site's rule asks for a second factor, who has none, is sent to set one up.
  redirect(await landingAfterSignIn(outcome.editor, next), 303);
}

export async function signOut(input: FormData): Promise<void> {
  const { everywhere, revokeLinks } = readForm(signOutFormSchema, input);
  const { signedOutEverywhere } = await endEditorSession({ everywhere, revokeLinks });
  // The sign-in page says what happened, in fixed words the address only chooses between.
  redirect(
    new URL(
      signedOutEverywhere
        ? `/preview?notice=signed-out-everywhere${revokeLinks ? '&links=revoked' : ''}`
        : '/preview',
      siteOrigin(),
    ),
    303,
  );
}
