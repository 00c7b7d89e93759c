'use client';
import { useActionState } from 'react';
import { confirmItIsYou } from '../../lib/editor/actions/security';
import type { ConfirmIdentityState } from '../../lib/editor/forms';

/**
 * "Confirm it is you" on the security screen: the password typed again before the screen shows
 * what changes how one signs in. Works without JavaScript (the answer is the page, or a 303 to
 * the screen with its controls).
 */
export function ConfirmIdentityForm({ email }: { email: string }) {
  const [answer, action, pending] = useActionState<ConfirmIdentityState, FormData>(
    confirmItIsYou,
    {},
  );
  const state = answer ?? {};
  return (
    <form
      action={action}
      className="settings-form"
      aria-describedby={state.error ? 'confirm-identity-error' : undefined}
    >
      {state.error ? (
        <p id="confirm-identity-error" role="alert" className="form-error">
          {state.error}
        </p>
      ) : null}
      {/* For password managers: whose password this is. */}
      <input type="hidden" name="username" autoComplete="username" value={email} />
      <label>
        Password
        <input
          name="password"
          type="password"
          autoComplete="current-password"
          required
          maxLength={1024}
        />
      </label>
      <button type="submit" className="primary" disabled={pending}>
        {pending ? 'Checking…' : 'Confirm'}
      </button>
    </form>
  );
}
