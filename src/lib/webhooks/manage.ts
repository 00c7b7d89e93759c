// Owns what an Administrator does to webhooks, for the screen and the CLI alike: each change is
// one transaction with its audit-trail entry (docs/decisions/0041), so an entry exists exactly
// when the change committed. The secret is returned by `createWebhook` and `rotateWebhookSecret`
// only, to be shown that once.
import 'server-only';
import { recordAudit } from '../audit/audit';
import { type Database, getDatabase } from '../data/db';
import { getEnv } from '../runtime/env';
import {
  addEndpoint,
  countEndpoints,
  endpointsTurnedOff,
  listDeliveries,
  listEndpoints,
  redeliver,
  removeEndpoint,
  rotateSecret,
  setEndpointEnabled,
  type WebhookDelivery,
  type WebhookEndpoint,
} from './store';

const allowPrivate = () => getEnv().WEBHOOKS_ALLOW_PRIVATE === '1';

export function createWebhook(
  db: Database,
  { url, events, by }: { url: string; events: string | readonly string[]; by: string | null },
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  return db.transaction(async (q) => {
    const made = await addEndpoint(q, {
      url,
      events,
      by,
      at: new Date(),
      allowPrivate: allowPrivate(),
    });
    await recordAudit(q, {
      action: 'webhook.added',
      detail: {
        webhook: made.endpoint.id,
        url: made.endpoint.url,
        events: made.endpoint.events.join(' '),
      },
    });
    return made;
  });
}

export function deleteWebhook(db: Database, id: number): Promise<WebhookEndpoint> {
  return db.transaction(async (q) => {
    const removed = await removeEndpoint(q, id);
    await recordAudit(q, { action: 'webhook.removed', detail: { webhook: id, url: removed.url } });
    return removed;
  });
}

export function setWebhookEnabled(
  db: Database,
  id: number,
  enabled: boolean,
): Promise<WebhookEndpoint> {
  return db.transaction(async (q) => {
    const endpoint = await setEndpointEnabled(q, id, enabled, new Date());
    await recordAudit(q, {
      action: enabled ? 'webhook.enabled' : 'webhook.disabled',
      detail: { webhook: id, url: endpoint.url },
    });
    return endpoint;
  });
}

export function rotateWebhookSecret(db: Database, id: number): Promise<string> {
  return db.transaction(async (q) => {
    const secret = await rotateSecret(q, id);
    await recordAudit(q, { action: 'webhook.secret_rotated', detail: { webhook: id } });
    return secret;
  });
}

export function redeliverWebhook(db: Database, deliveryId: number): Promise<WebhookDelivery> {
  return db.transaction(async (q) => {
    const delivery = await redeliver(q, deliveryId, new Date());
    await recordAudit(q, {
      action: 'webhook.redelivered',
      detail: { webhook: delivery.endpointId, delivery: deliveryId, event: delivery.eventId },
    });
    return delivery;
  });
}

/** What the screens read, on the process's database (the UI never opens one itself). */
export function webhooksView() {
  return {
    /** At most MAX_ENDPOINTS, oldest first. */
    endpoints: async () => listEndpoints((await getDatabase()).query),
    /** How many there are in all (the screen says when it lists fewer, and when at the cap). */
    count: async () => countEndpoints((await getDatabase()).query),
    deliveries: async (endpointId: number) =>
      listDeliveries((await getDatabase()).query, endpointId),
    /** Whether this server sends to private and loopback addresses too (the screen says so). */
    allowsPrivate: allowPrivate(),
    /** Turned off by the deliverer (repeated failures, a 410 Gone): the dashboard's notice. */
    turnedOff: async () => endpointsTurnedOff((await getDatabase()).query),
  };
}
