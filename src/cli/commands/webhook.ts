// Owns `webhook add|list|remove|deliveries|redeliver` (docs/decisions/0046): webhooks from the
// command line, with the screen's rules and audit entries (webhooks/manage.ts). `add` prints
// the signing secret, once; nothing prints it again. Loaded only when one runs.
import 'server-only';
import { createWebhook, deleteWebhook, redeliverWebhook } from '../../lib/webhooks/manage';
import {
  countEndpoints,
  isWebhookError,
  listDeliveries,
  listEndpoints,
  WEBHOOK_EVENT_NAMES,
  type WebhookDelivery,
} from '../../lib/webhooks/store';
import { CliError, one, type Run, UsageError } from '../command';

function idOf(text: string, what: string): number {
  if (!/^[1-9]\d{0,15}$/.test(text))
    throw new UsageError(`${what} is a number (\`webhook list\` shows them)`);
  return Number(text);
}

/** Refusals the store explains are one line and exit 1. */
async function refusing<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isWebhookError(error)) throw new CliError(error.message);
    throw error;
  }
}

export const webhookAdd: Run = async ({ positionals, values }, { db, io }) => {
  const url = one(positionals);
  if (typeof values.events !== 'string')
    throw new UsageError(`webhook add needs --events, some of: ${WEBHOOK_EVENT_NAMES.join(',')}`);
  const events = values.events;
  const { endpoint, secret } = await refusing(() => createWebhook(db, { url, events, by: 'cli' }));
  io.stdout(`webhook ${endpoint.id} added: ${endpoint.url} (${endpoint.events.join(', ')})\n`);
  io.stdout(`secret: ${secret}\n`);
  io.stdout(
    'Keep the secret now: it is not shown again. Receivers verify each delivery with it.\n',
  );
};

export const webhookList: Run = async (_args, { db, io }) => {
  const endpoints = await listEndpoints(db.query);
  if (endpoints.length === 0) io.stdout('no webhooks\n');
  for (const endpoint of endpoints) {
    const state = endpoint.enabled
      ? 'on'
      : endpoint.disabledReason
        ? `off (turned off: ${endpoint.disabledReason})`
        : 'off';
    io.stdout(`${endpoint.id}  ${state}  ${endpoint.url}  ${endpoint.events.join(',')}\n`);
  }
  // Only rows put in the database around the cap make more than are listed.
  const count = await countEndpoints(db.query);
  if (count > endpoints.length) io.stdout(`(the first ${endpoints.length} of ${count})\n`);
};

export const webhookRemove: Run = async ({ positionals }, { db, io }) => {
  const id = idOf(one(positionals), 'the webhook id');
  const removed = await refusing(() => deleteWebhook(db, id));
  io.stdout(`webhook ${id} removed (${removed.url})\n`);
};

function deliveryLine(delivery: WebhookDelivery): string {
  const outcome =
    delivery.lastStatus !== null
      ? String(delivery.lastStatus)
      : delivery.lastAttemptAt === null
        ? '-'
        : 'no answer';
  return [
    delivery.id,
    delivery.createdAt,
    delivery.type.padEnd(29),
    delivery.state.padEnd(9),
    `status=${outcome}`,
    `attempts=${delivery.attempts}`,
    delivery.latencyMs === null ? '' : `latency=${delivery.latencyMs}ms`,
    delivery.nextAt === null ? '' : `next=${delivery.nextAt}`,
    delivery.lastError === null ? '' : `error=${JSON.stringify(delivery.lastError)}`,
    delivery.excerpt ? `answer=${JSON.stringify(delivery.excerpt.slice(0, 80))}` : '',
  ]
    .filter(Boolean)
    .join('  ')
    .replace(/\p{Cc}/gu, '?');
}

export const webhookDeliveries: Run = async ({ positionals }, { db, io }) => {
  const id = idOf(one(positionals), 'the webhook id');
  const log = await refusing(() => listDeliveries(db.query, id));
  if (log.length === 0) io.stdout('no deliveries yet\n');
  for (const delivery of log) io.stdout(`${deliveryLine(delivery)}\n`);
};

export const webhookRedeliver: Run = async ({ positionals }, { db, io }) => {
  const id = idOf(one(positionals), 'the delivery id');
  const delivery = await refusing(() => redeliverWebhook(db, id));
  io.stdout(
    `delivery ${id} (${delivery.type}) queued again; a running server sends it within seconds\n`,
  );
};
