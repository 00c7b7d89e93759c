'use client';
import { browserSupportsWebAuthn, startAuthentication } from '@simplewebauthn/browser';
import { useEffect, useState } from 'react';
import { passkeySignIn, passkeySignInOptions } from '../../lib/editor/actions/security';

/**
 * "Sign in with a passkey": no email, no password (the passkey is discoverable: the browser
 * asks which account). Shown only once the page's script runs in a browser that has WebAuthn:
 * without either, the button could do nothing.
 */
export function PasskeySignIn({
  next,
  label = 'Sign in with a passkey',
}: {
  next: string;
  label?: string;
}) {
  const [supported, setSupported] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setSupported(browserSupportsWebAuthn()), []);
  if (!supported) return null;
  const signIn = async () => {
    setPending(true);
    setError(null);
    try {
      const optionsJSON = await passkeySignInOptions();
      const answer = await startAuthentication({ optionsJSON });
      const state = await passkeySignIn({ answer, next });
      if (state.next) {
        window.location.assign(state.next);
        return;
      }
      setError(state.error ?? 'The passkey could not be verified. Try again.');
    } catch (caught) {
      // The person closed the browser's prompt, or no passkey of this site is on the device.
      setError(
        caught instanceof Error && caught.name === 'NotAllowedError'
          ? 'No passkey was used. Try again, or sign in with your password.'
          : 'The passkey could not be used. Try again, or sign in with your password.',
      );
    }
    setPending(false);
  };
  return (
    <div className="passkey-sign-in">
      {error ? (
        <p role="alert" className="form-error">
          {error}
        </p>
      ) : null}
      <button type="button" onClick={signIn} disabled={pending}>
        {pending ? 'Waiting for the passkey…' : label}
      </button>
    </div>
  );
}
