'use client';
import { useActionState } from 'react';
import { submitSecondStep } from '../../lib/editor/actions/security';
import type { SecondStepState } from '../../lib/editor/forms';

/**
 * The sign-in's second step: the code the authenticator app shows, or a recovery code. The
 * page holds nothing of the first step (the password is not in it: a cookie names the waiting
 * sign-in on the server). Works without JavaScript, like the sign-in form.
 */
export function SecondStepForm({ email, totp }: { email: string; totp: boolean }) {
  const [answer, action, pending] = useActionState<SecondStepState, FormData>(submitSecondStep, {});
  const state = answer ?? {};
  return (
    <form action={action} aria-describedby={state.error ? 'second-step-error' : undefined}>
      <p>
        Signing in as <strong>{email}</strong>.{' '}
        {totp
          ? 'Enter the 6-digit code your authenticator app shows, or one of your recovery codes.'
          : 'Use your passkey below, or enter one of your recovery codes.'}
      </p>
      {state.error ? (
        <p id="second-step-error" role="alert" className="form-error">
          {state.error}
        </p>
      ) : null}
      <label>
        Code
        <input
          name="code"
          type="text"
          autoComplete="one-time-code"
          spellCheck={false}
          autoCapitalize="none"
          required
          maxLength={40}
        />
      </label>
      <button type="submit" className="primary" disabled={pending}>
        {pending ? 'Checking…' : 'Continue'}
      </button>
    </form>
  );
}
