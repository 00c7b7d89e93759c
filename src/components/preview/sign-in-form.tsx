'use client';
import { useActionState } from 'react';
import { signIn } from '../../lib/editor/actions/session';
import type { SignInState } from '../../lib/editor/forms';
import { PasskeySignIn } from './passkey-sign-in';

// Works without JavaScript: the form posts to the current URL and the page re-renders with
// the returned state.
export function SignInForm({ next }: { next: string }) {
  const [answer, action, pending] = useActionState<SignInState, FormData>(signIn, {});
  // An action that succeeded redirects, and React then leaves undefined as the state.
  const state = answer ?? {};
  return (
    <form
      action={action}
      className="card sign-in"
      aria-describedby={state.error ? 'sign-in-error' : undefined}
    >
      <h1>Sign in to preview</h1>
      <p>Editors see the whole site with their drafts here.</p>
      {state.error ? (
        <p id="sign-in-error" role="alert" className="form-error">
          {state.error}
        </p>
      ) : null}
      <input type="hidden" name="next" value={next} />
      <label>
        Email
        <input
          name="email"
          type="email"
          autoComplete="username"
          required
          defaultValue={state.email ?? ''}
        />
      </label>
      <label>
        Password
        <input name="password" type="password" autoComplete="current-password" required />
      </label>
      <button type="submit" disabled={pending}>
        {pending ? 'Signing in…' : 'Sign in'}
      </button>
      <PasskeySignIn next={next} />
    </form>
  );
}
