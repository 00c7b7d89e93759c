'use client';
import { useActionState } from 'react';
import { KEY_NAME_MAX } from '../../lib/api-keys/limits';
import { createKey, revokeKey } from '../../lib/editor/actions/api-keys';
import type { ApiKeyFormState } from '../../lib/editor/forms';

/**
 * A new API key: its name, then the key itself, shown this once with how to use it. A refusal
 * comes back with the name typed and the reason, with or without JavaScript.
 */
export function ApiKeyForm() {
  const [answer, action, pending] = useActionState<ApiKeyFormState, FormData>(createKey, {});
  const state = answer ?? {};
  return (
    <>
      {state.made ? (
        <section className="notice-box api-key-made" role="status" aria-labelledby="api-key-made">
          <h2 id="api-key-made">Key made: {state.made.name}</h2>
          <p>
            Copy it now and keep it where its user keeps passwords:{' '}
            <strong>it is shown only this once</strong>. Folio keeps only a fingerprint of it, and
            cannot show it again.
          </p>
          <p>
            <label>
              The new key
              <input
                type="text"
                readOnly
                value={state.made.key}
                className="api-key-value"
                spellCheck={false}
                autoComplete="off"
                onFocus={(event) => event.currentTarget.select()}
              />
            </label>
          </p>
          <p>
            Send it with each request as <code>Authorization: Bearer {state.made.prefix}…</code>.
          </p>
        </section>
      ) : null}
      <form action={action} className="redirect-form" key={state.values ? 'refused' : 'new'}>
        <label>
          Name (who or what uses it)
          <input
            name="name"
            type="text"
            required
            maxLength={KEY_NAME_MAX}
            placeholder="Mobile app"
            defaultValue={state.values?.name ?? ''}
            aria-invalid={state.error ? true : undefined}
            aria-describedby={state.error ? 'api-key-name-error' : undefined}
            autoComplete="off"
          />
          {state.error ? (
            <span id="api-key-name-error" className="form-error" role="alert">
              {state.error}
            </span>
          ) : null}
        </label>
        <button type="submit" className="primary" disabled={pending}>
          Make key
        </button>
      </form>
    </>
  );
}

/** Revokes one key: its row's button. */
export function RevokeApiKeyButton({ id, name }: { id: number; name: string }) {
  const [answer, action, pending] = useActionState<ApiKeyFormState, FormData>(revokeKey, {});
  return (
    <form action={action} className="inline-form">
      <input type="hidden" name="key" value={String(id)} />
      <button
        type="submit"
        className="danger"
        disabled={pending}
        aria-label={`Revoke the key ${name}`}
      >
        Revoke
      </button>
      {answer?.error ? (
        <span className="form-error" role="alert">
          {answer.error}
        </span>
      ) : null}
    </form>
  );
}
