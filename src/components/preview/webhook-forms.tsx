'use client';
// The webhooks screen's forms (decision 0046). Each works without JavaScript (the form posts
// to the page and the page re-renders with the answer). A new endpoint's secret, and a new
// secret, come back in the form's answer only: shown this once, never stored in the page.
import { useActionState } from 'react';
import {
  addWebhook,
  changeWebhook,
  redeliverWebhookAction,
} from '../../lib/editor/actions/webhooks';
import type { WebhookFormState } from '../../lib/editor/forms';

/** Shown once: the secret to copy into the receiver. */
function SecretOnce({ secret }: { secret: NonNullable<WebhookFormState['secret']> }) {
  return (
    <div role="status" className="notice webhook-secret">
      <p>
        {secret.url ? (
          <>
            Webhook {secret.webhook} added for <code>{secret.url}</code>.
          </>
        ) : (
          <>Webhook {secret.webhook} has a new secret; the old one no longer signs.</>
        )}{' '}
        Copy its signing secret now — it is shown only this once. The receiver verifies each
        delivery with it (Standard Webhooks):
      </p>
      <p>
        <code className="secret">{secret.secret}</code>
      </p>
    </div>
  );
}

function Refusal({ state }: { state: WebhookFormState | undefined }) {
  return state?.error ? (
    <p role="alert" className="form-error">
      {state.error}
    </p>
  ) : null;
}

/** A new endpoint: its URL and the events to send it. */
export function AddWebhookForm({ events }: { events: readonly { name: string; label: string }[] }) {
  const [answer, action, pending] = useActionState<WebhookFormState, FormData>(addWebhook, {});
  const state = answer ?? {};
  const ticked = new Set(state.values?.events ?? ['page.published', 'page.updated']);
  return (
    <>
      {state.secret ? <SecretOnce secret={state.secret} /> : null}
      <form
        action={action}
        className="webhook-form"
        key={state.values ? 'refused' : state.secret ? `added-${state.secret.webhook}` : 'new'}
      >
        <label>
          URL (where each event is sent, as a signed POST)
          <input
            name="url"
            type="url"
            required
            maxLength={2000}
            placeholder="https://example.com/hooks/folio"
            defaultValue={state.values?.url ?? ''}
            aria-invalid={state.error ? true : undefined}
            spellCheck={false}
            autoComplete="off"
          />
        </label>
        <fieldset>
          <legend>Events</legend>
          {events.map((event) => (
            <label className="inline-choice" key={event.name}>
              <input
                type="checkbox"
                name="events"
                value={event.name}
                defaultChecked={ticked.has(event.name)}
              />
              <code>{event.name}</code> — {event.label}
            </label>
          ))}
        </fieldset>
        <Refusal state={state.secret ? undefined : state} />
        <button type="submit" className="primary" disabled={pending}>
          Add webhook
        </button>
      </form>
    </>
  );
}

/** One of a webhook's buttons: turn off or on, remove, new secret. */
export function WebhookCommand({
  webhook,
  intent,
  label,
  danger = false,
}: {
  webhook: number;
  intent: 'disable' | 'enable' | 'remove' | 'rotate';
  label: string;
  danger?: boolean;
}) {
  const [answer, action, pending] = useActionState<WebhookFormState, FormData>(changeWebhook, {});
  return (
    <>
      <form action={action} className="inline-form">
        <input type="hidden" name="webhook" value={webhook} />
        <input type="hidden" name="intent" value={intent} />
        <button
          type="submit"
          disabled={pending}
          className={danger ? 'danger' : undefined}
          aria-label={`${label} (webhook ${webhook})`}
        >
          {label}
        </button>
        <Refusal state={answer} />
      </form>
      {answer?.secret ? <SecretOnce secret={answer.secret} /> : null}
    </>
  );
}

/** Sends one delivery again, with its webhook-id unchanged. */
export function RedeliverButton({ delivery }: { delivery: number }) {
  const [answer, action, pending] = useActionState<WebhookFormState, FormData>(
    redeliverWebhookAction,
    {},
  );
  return (
    <form action={action} className="inline-form">
      <input type="hidden" name="delivery" value={delivery} />
      <button type="submit" disabled={pending} aria-label={`Redeliver delivery ${delivery}`}>
        Redeliver
      </button>
      <Refusal state={answer} />
    </form>
  );
}
