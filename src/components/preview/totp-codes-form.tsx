'use client';
import { useActionState } from 'react';
import { confirmTotpSetUp, newRecoveryCodes } from '../../lib/editor/actions/security';
import type { TotpCodesState } from '../../lib/editor/forms';
import { SECURITY_SCREEN } from '../../lib/http/routes';

/**
 * Two forms whose answer is ten recovery codes, shown this once: confirming the authenticator
 * app with its code, and asking for new codes. Works without JavaScript (the answer is the page).
 */
export function TotpCodesForm({ kind }: { kind: 'confirm' | 'renew' }) {
  const [answer, action, pending] = useActionState<TotpCodesState, FormData>(
    kind === 'confirm' ? confirmTotpSetUp : newRecoveryCodes,
    {},
  );
  const state = answer ?? {};
  if (state.recoveryCodes)
    return (
      <section className="recovery-codes" aria-labelledby="recovery-codes-title">
        <h3 id="recovery-codes-title">
          {kind === 'confirm' ? 'The app is on. Your recovery codes' : 'Your new recovery codes'}
        </h3>
        <p role="status" className="notice">
          Keep these somewhere safe, away from your phone: each signs you in once if the app is
          lost. They are shown only now{kind === 'renew' ? '; the old ones no longer work' : ''}.
        </p>
        <ol className="recovery-code-list">
          {state.recoveryCodes.map((code) => (
            <li key={code}>
              <code>{code}</code>
            </li>
          ))}
        </ol>
        <p>
          <a href={SECURITY_SCREEN}>Done</a>
        </p>
      </section>
    );
  return (
    <form action={action} className="settings-form">
      {state.error ? (
        <p role="alert" className="form-error">
          {state.error}
        </p>
      ) : null}
      {kind === 'confirm' ? (
        <label>
          Code from the app
          <input
            name="code"
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            required
            maxLength={40}
          />
        </label>
      ) : null}
      <button
        type="submit"
        className={kind === 'confirm' ? 'primary' : undefined}
        disabled={pending}
      >
        {kind === 'confirm' ? 'Turn on' : 'Make new recovery codes'}
      </button>
    </form>
  );
}
