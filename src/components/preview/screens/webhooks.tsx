// Owns /preview?webhooks (issue 29, decision 0046), for Administrators: the endpoints that get a
// signed POST for each content event they chose, a form to add one (its secret shown once),
// each one's buttons (turn off or on, new secret, remove), and the delivery log of the one
// asked for (?log=<id>): the last 50 deliveries, with their status, latency, attempts, next
// retry and the start of the receiver's answer, and a Redeliver button.
import 'server-only';
import { API_KEYS_SCREEN, PREVIEW_DASHBOARD, WEBHOOKS_SCREEN } from '../../../lib/http/routes';
import { webhooksView } from '../../../lib/webhooks/manage';
import {
  MAX_ENDPOINTS,
  WEBHOOK_EVENT_NAMES,
  WEBHOOK_EVENTS,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '../../../lib/webhooks/store';
import { LocalTime } from '../local-time';
import { AddWebhookForm, RedeliverButton, WebhookCommand } from '../webhook-forms';
import type { ScreenProps } from './asked';

/** Fixed words for fixed keys: a crafted ?notice= shows nothing. */
const NOTICES: Record<string, string> = {
  'webhook-disabled': 'Webhook turned off. Events are not sent to it until it is turned on.',
  'webhook-enabled': 'Webhook turned on. New events are sent to it again.',
  'webhook-removed': 'Webhook removed, with its delivery log.',
  'webhook-gone': 'That webhook had already been removed.',
  'delivery-queued': 'Delivery queued again; it is sent within a few seconds.',
  'delivery-gone': 'That delivery is no longer in the log.',
};

const STATE_WORDS: Record<WebhookDelivery['state'], string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Given up',
};

function EndpointState({ endpoint }: { endpoint: WebhookEndpoint }) {
  if (endpoint.enabled) return <>On</>;
  if (endpoint.disabledReason)
    return (
      <>
        <strong>Turned off</strong> by Folio: {endpoint.disabledReason}
      </>
    );
  return <>Off</>;
}

function DeliveryLog({ endpoint, log }: { endpoint: WebhookEndpoint; log: WebhookDelivery[] }) {
  return (
    <section aria-labelledby="deliveries">
      <h2 id="deliveries">
        Deliveries to <code>{endpoint.url}</code> <small>(the last {log.length})</small>
      </h2>
      {log.length === 0 ? (
        <p>No deliveries yet: the next event it subscribes to is sent here.</p>
      ) : (
        <table className="page-table webhook-deliveries">
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">State</th>
              <th scope="col">Status</th>
              <th scope="col">Latency</th>
              <th scope="col">Attempts</th>
              <th scope="col">Next retry</th>
              <th scope="col">Answer</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {log.map((delivery) => (
              <tr key={delivery.id}>
                <td>
                  <code>{delivery.type}</code>
                  <br />
                  <small>
                    #{delivery.id}, <LocalTime iso={delivery.createdAt} />
                  </small>
                </td>
                <td>{STATE_WORDS[delivery.state]}</td>
                <td>
                  {delivery.lastStatus ?? (delivery.lastAttemptAt ? 'No answer' : '–')}
                  {delivery.lastError ? (
                    <>
                      <br />
                      <small>{delivery.lastError}</small>
                    </>
                  ) : null}
                </td>
                <td>{delivery.latencyMs === null ? '–' : `${delivery.latencyMs} ms`}</td>
                <td>{delivery.attempts}</td>
                <td>{delivery.nextAt ? <LocalTime iso={delivery.nextAt} /> : '–'}</td>
                <td>
                  {delivery.excerpt ? <code className="excerpt">{delivery.excerpt}</code> : '–'}
                </td>
                <td className="row-actions">
                  {delivery.state === 'pending' ? null : <RedeliverButton delivery={delivery.id} />}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export async function WebhooksScreen({ asked: { notice, params } }: ScreenProps) {
  const view = webhooksView();
  const allowPrivate = view.allowsPrivate;
  const [endpoints, count] = await Promise.all([view.endpoints(), view.count()]);
  const text = notice === null ? undefined : NOTICES[notice];
  const logId = Number(params.get('log') ?? '');
  const shown = endpoints.find((endpoint) => endpoint.id === logId);
  const log = shown ? await view.deliveries(shown.id) : [];
  return (
    <>
      <title>Webhooks · Folio preview</title>
      <h1>Webhooks</h1>
      {text ? (
        <p role="status" className="notice">
          {text}
        </p>
      ) : null}
      <p>
        <a href={PREVIEW_DASHBOARD}>Back to the pages</a> · <a href={API_KEYS_SCREEN}>API keys</a>{' '}
        for the content API
      </p>
      <p>
        Tell another system when something changes on the site: each event is sent as a POST with
        JSON, signed per the Standard Webhooks specification with the endpoint’s secret. A receiver
        that fails is tried again for about a day; one that keeps failing is turned off, with a
        notice on the dashboard.{' '}
        {allowPrivate
          ? 'This server also sends to private and loopback addresses (WEBHOOKS_ALLOW_PRIVATE is set).'
          : 'Only addresses on the public internet are sent to.'}{' '}
        From the command line: <code>bun run folio webhook</code>.
      </p>
      <h2>Add a webhook</h2>
      {count >= MAX_ENDPOINTS ? (
        <p className="notice">
          There are {count} webhooks, and a site may have {MAX_ENDPOINTS}: remove one to add
          another. Each event is sent to every webhook that subscribes to it; to reach more systems,
          send to one receiver that passes events on.
        </p>
      ) : (
        <AddWebhookForm
          events={WEBHOOK_EVENT_NAMES.map((name) => ({ name, label: WEBHOOK_EVENTS[name] }))}
        />
      )}
      <h2 id="webhooks-list">
        Webhooks{' '}
        <small>
          ({count > endpoints.length ? `the first ${endpoints.length} of ${count}` : count})
        </small>
      </h2>
      {endpoints.length === 0 ? (
        <p>No webhooks yet.</p>
      ) : (
        <table className="page-table webhooks-table">
          <thead>
            <tr>
              <th scope="col">URL</th>
              <th scope="col">Events</th>
              <th scope="col">State</th>
              <th scope="col">Added</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {endpoints.map((endpoint) => (
              <tr key={endpoint.id}>
                <td>
                  <code>{endpoint.url}</code>
                  <br />
                  <a href={`${WEBHOOKS_SCREEN}&log=${endpoint.id}#deliveries`}>Delivery log</a>
                </td>
                <td>
                  {endpoint.events.map((event) => (
                    <code key={event} className="webhook-event">
                      {event}{' '}
                    </code>
                  ))}
                </td>
                <td>
                  <EndpointState endpoint={endpoint} />
                </td>
                <td>
                  <LocalTime iso={endpoint.createdAt} />
                  {endpoint.createdBy ? (
                    <>
                      <br />
                      <small>by {endpoint.createdBy}</small>
                    </>
                  ) : null}
                </td>
                <td className="row-actions">
                  {endpoint.enabled ? (
                    <WebhookCommand webhook={endpoint.id} intent="disable" label="Turn off" />
                  ) : (
                    <WebhookCommand webhook={endpoint.id} intent="enable" label="Turn on" />
                  )}
                  <WebhookCommand webhook={endpoint.id} intent="rotate" label="New secret" />
                  <WebhookCommand webhook={endpoint.id} intent="remove" label="Remove" danger />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {shown ? <DeliveryLog endpoint={shown} log={log} /> : null}
    </>
  );
}
