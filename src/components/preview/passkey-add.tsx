'use client';
import { browserSupportsWebAuthn, startRegistration } from '@simplewebauthn/browser';
import { useEffect, useState } from 'react';
import { addPasskey, passkeyRegistrationOptions } from '../../lib/editor/actions/security';

/**
 * Adds a passkey under a name the person chooses ("Work laptop"): the browser makes it, the
 * server verifies and keeps it, the screen reloads with it listed. Needs JavaScript and
 * WebAuthn: without them it says so instead of offering a button that cannot work.
 */
export function PasskeyAdd({ nameMax }: { nameMax: number }) {
  const [supported, setSupported] = useState<boolean | null>(null);
  const [name, setName] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setSupported(browserSupportsWebAuthn()), []);
  if (supported === false) return <p className="hint">This browser cannot make passkeys.</p>;
  const add = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      const made = await passkeyRegistrationOptions({});
      if (!made.options) {
        setError(made.error ?? 'Folio could not start making a passkey. Try again.');
      } else {
        const answer = await startRegistration({ optionsJSON: made.options });
        const state = await addPasskey({ answer, name });
        if (state.next) {
          window.location.assign(state.next);
          return;
        }
        setError(state.error ?? 'The passkey could not be kept. Try again.');
      }
    } catch (caught) {
      setError(
        caught instanceof Error && caught.name === 'InvalidStateError'
          ? 'This device has a passkey for your account already.'
          : 'No passkey was made. Try again when the browser asks.',
      );
    }
    setPending(false);
  };
  return (
    <form onSubmit={add} className="settings-form passkey-add">
      {error ? (
        <p role="alert" className="form-error">
          {error}
        </p>
      ) : null}
      <label>
        Name of the new passkey
        <span className="hint">Where it lives, so you can tell them apart: “Work laptop”.</span>
        <input
          name="name"
          type="text"
          maxLength={nameMax}
          value={name}
          onChange={(event) => setName(event.target.value)}
          disabled={supported === null}
        />
      </label>
      <button type="submit" className="primary" disabled={pending || supported === null}>
        {pending ? 'Waiting for the passkey…' : 'Add a passkey'}
      </button>
    </form>
  );
}
