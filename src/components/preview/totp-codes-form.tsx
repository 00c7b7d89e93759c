'use client';
import { useActionState } from 'react';
import { totpCodes } from '../../lib/editor/actions/security';
import type { TotpCodesState } from '../../lib/editor/forms';
import { SECURITY_SCREEN } from '../../lib/http/routes';

/**
 * The authenticator app's form whose answer is ten recovery codes, shown this once: confirming
 * the app with its code, or asking for new codes once it is on. One form in one place on the
 * screen, so the codes stay shown while the screen around it turns from "set up" to "on".
 * Works without JavaScript (the answer is the page).
 */
export function TotpCodesForm({ confirmed }: { confirmed: boolean }) {
  const [answer, action, pending] = useActionState<TotpCodesState, FormData>(totpCodes, {});
  const state = answer ?? {};
  if (state.recoveryCodes)
    return (
      <section className="recovery-codes" aria-labelledby="recovery-codes-title">
        <h3 id="recovery-codes-title">Your recovery codes</h3>
        <p role="status" className="notice">
          Keep these somewhere safe, away from your phone: each signs you in once if the app is
          lost. They are shown only now, and any older ones no longer work.
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
      <input type="hidden" name="intent" value={confirmed ? 'renew' : 'confirm'} />
      {confirmed ? null : (
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
      )}
      <button type="submit" className={confirmed ? undefined : 'primary'} disabled={pending}>
        {confirmed ? 'Make new recovery codes' : 'Turn on'}
      </button>
    </form>
  );
}
