// Owns webhooks' rows (docs/decisions/0046): the endpoints Administrators register, and the
// delivery outbox the events dispatcher fills, one row per (endpoint, event). A server claims
// due rows for a lease, as the purge outbox does (data/cache-purges.ts): one UPDATE that
// re-checks the row is free, so of every instance on one database one sends each delivery,
// and an instance that dies holding one leaves it to the others when its lease ends. A
// delivery is not claimed while an earlier one for the same endpoint and page is still pending
// (in order per page), and a failed one waits out a backoff of about a day before it is given up.
import 'server-only';
import { randomBytes } from 'node:crypto';
import type { Database, Query } from '../data/db';
import { isAddressLiteral, isPublicAddress } from './addresses';

/** The events an endpoint may subscribe to, with the words the screen and CLI show. */
export const WEBHOOK_EVENTS = {
  'page.published': 'A page is published for the first time (or again after being taken down)',
  'page.updated': 'A published page is published again, or its address changes',
  'page.unpublished': 'A page is taken down',
  'page.deleted': 'A page is deleted',
  'page.scheduled_publish_failed': 'A scheduled publish could not happen',
  'settings.changed': 'The site settings change',
} as const;

export type WebhookEvent = keyof typeof WEBHOOK_EVENTS;
export const WEBHOOK_EVENT_NAMES = Object.keys(WEBHOOK_EVENTS) as WebhookEvent[];

export function isWebhookEvent(value: unknown): value is WebhookEvent {
  return typeof value === 'string' && Object.hasOwn(WEBHOOK_EVENTS, value);
}

/** Long enough for a send (its 10 s timeout) and its bookkeeping; a killed instance loses this. */
export const LEASE_MS = 15_000;
/**
 * Waits after the 1st, 2nd… failed attempt: about a day in all (24 h 12 min), then given up.
 * Short at first (a receiver restarting), then hours apart (a receiver down for the night).
 */
export const BACKOFF_MS = [
  5_000,
  30_000,
  2 * 60_000,
  10 * 60_000,
  3_600_000,
  3 * 3_600_000,
  6 * 3_600_000,
  6 * 3_600_000,
  8 * 3_600_000,
] as const;
/** Attempts in all: the first and one after each wait. */
export const MAX_ATTEMPTS = BACKOFF_MS.length + 1;
/** An endpoint failing this many attempts in a row (any deliveries) is turned off. */
export const DISABLE_AFTER_FAILURES = 20;
/** A delivered or given-up delivery is kept this long (the log, redelivery by hand). */
export const KEEP_FINISHED_MS = 30 * 24 * 3_600_000;
/** The delivery log shows this many, newest first. */
export const LOG_LENGTH = 50;
/**
 * The most endpoints a site may have, as API keys have theirs: every event is one delivery per
 * endpoint, and the screen lists them all. A hostile pass's 10 000 made a 31 MB screen and a
 * day's backlog from one settings save; a site with a hundred receivers wants a relay instead.
 */
export const MAX_ENDPOINTS = 100;
const MAX_URL_LENGTH = 2_000;

/** The wait before the next attempt after `attempts` failed ones; null: give up. */
export function backoffAfter(attempts: number): number | null {
  if (attempts < 1) return 0;
  return BACKOFF_MS[attempts - 1] ?? null;
}

/** A refusal to show as it is (a 400 on the screen, exit code 1 in the CLI). */
export class WebhookError extends Error {
  constructor(
    readonly code: 'invalid-url' | 'invalid-events' | 'not-found' | 'already-pending' | 'cap',
    message: string,
  ) {
    super(message);
    this.name = 'WebhookError';
  }
}

export function isWebhookError(error: unknown): error is WebhookError {
  return error instanceof WebhookError;
}

/**
 * The URL as stored, or a WebhookError saying what is wrong with it. A name is resolved at each
 * send, not here (what it resolves to may change); an address typed as such is checked now.
 */
export function checkEndpointUrl(text: string, { allowPrivate }: { allowPrivate: boolean }) {
  const trimmed = text.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_URL_LENGTH)
    throw new WebhookError('invalid-url', `A webhook URL has 1 to ${MAX_URL_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new WebhookError('invalid-url', 'That is not a URL (such as https://example.com/hook).');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new WebhookError('invalid-url', 'A webhook URL starts with https:// or http://.');
  if (url.username || url.password)
    throw new WebhookError('invalid-url', 'A webhook URL carries no user name or password.');
  if (url.hash) throw new WebhookError('invalid-url', 'A webhook URL has no #fragment.');
  if (!allowPrivate && isAddressLiteral(url.hostname) && !isPublicAddress(url.hostname))
    throw new WebhookError(
      'invalid-url',
      'That address is not on the public internet (loopback, private or link-local); webhooks are not sent there.',
    );
  if (!allowPrivate && /^localhost\.?$|\.localhost\.?$/i.test(url.hostname))
    throw new WebhookError('invalid-url', 'Webhooks are not sent to localhost.');
  return url.href;
}

/** The events as given (names, comma- or space-separated, or a list), checked and in order. */
export function checkEvents(given: string | readonly string[]): WebhookEvent[] {
  const names = (typeof given === 'string' ? given.split(/[\s,]+/) : given)
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !isWebhookEvent(name));
  if (unknown.length > 0)
    throw new WebhookError(
      'invalid-events',
      `Unknown event ${unknown.join(', ')}; the events are ${WEBHOOK_EVENT_NAMES.join(', ')}.`,
    );
  if (names.length === 0)
    throw new WebhookError('invalid-events', 'Choose at least one event to send.');
  return WEBHOOK_EVENT_NAMES.filter((name) => names.includes(name));
}

/** A new signing secret in the Standard Webhooks form: `whsec_` and base64 of 32 random bytes. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export type WebhookEndpoint = {
  id: number;
  url: string;
  events: WebhookEvent[];
  enabled: boolean;
  consecutiveFailures: number;
  /** Why it was turned off by the deliverer (null: on, or turned off by a person). */
  disabledReason: string | null;
  disabledAt: string | null;
  createdAt: string;
  createdBy: string | null;
};

type EndpointRow = {
  id: number | string;
  url: string;
  events: string;
  enabled: number | string | boolean;
  consecutive_failures: number | string;
  disabled_reason: string | null;
  disabled_at: string | null;
  created_at: string;
  created_by: string | null;
};

function toEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: Number(row.id),
    url: row.url,
    events: row.events.split(' ').filter(isWebhookEvent),
    enabled: Number(row.enabled) === 1,
    consecutiveFailures: Number(row.consecutive_failures),
    disabledReason: row.disabled_reason,
    disabledAt: row.disabled_at,
    createdAt: row.created_at,
    createdBy: row.created_by,
  };
}

/** Registers an endpoint; returns it with its secret, which is shown this once. */
export async function addEndpoint(
  q: Query,
  {
    url,
    events,
    by,
    at,
    allowPrivate,
  }: {
    url: string;
    events: string | readonly string[];
    by: string | null;
    at: Date;
    allowPrivate: boolean;
  },
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const href = checkEndpointUrl(url, { allowPrivate });
  const chosen = checkEvents(events);
  const [count] = await q<{ n: number | string }>`SELECT COUNT(*) AS n FROM webhook_endpoints`;
  if (Number(count?.n ?? 0) >= MAX_ENDPOINTS)
    throw new WebhookError(
      'cap',
      `There are already ${MAX_ENDPOINTS} webhooks, the most a site may have: remove one first.`,
    );
  // One webhook per URL: a second would send every event twice, signed with another secret.
  const [existing] = await q<{ id: number | string }>`
    SELECT id FROM webhook_endpoints WHERE url = ${href}`;
  if (existing)
    throw new WebhookError(
      'invalid-url',
      `Webhook ${existing.id} sends to this URL already: change its events there, or remove it first.`,
    );
  const secret = newSecret();
  const [row] = await q<EndpointRow>`
    INSERT INTO webhook_endpoints (url, events, secret, created_at, created_by)
    VALUES (${href}, ${chosen.join(' ')}, ${secret}, ${at.toISOString()}, ${by})
    RETURNING id, url, events, enabled, consecutive_failures, disabled_reason, disabled_at,
              created_at, created_by`;
  if (!row) throw new Error('webhook endpoint insert returned no row');
  return { endpoint: toEndpoint(row), secret };
}

/**
 * The endpoints, oldest first: at most MAX_ENDPOINTS of them, so the screen stays one page even
 * when rows were put in the database around the cap.
 */
export async function listEndpoints(q: Query): Promise<WebhookEndpoint[]> {
  const rows = await q<EndpointRow>`
    SELECT id, url, events, enabled, consecutive_failures, disabled_reason, disabled_at,
           created_at, created_by
    FROM webhook_endpoints ORDER BY id LIMIT ${MAX_ENDPOINTS}`;
  return rows.map(toEndpoint);
}

/** How many endpoints there are (more than listed only when rows went around the cap). */
export async function countEndpoints(q: Query): Promise<number> {
  const [count] = await q<{ n: number | string }>`SELECT COUNT(*) AS n FROM webhook_endpoints`;
  return Number(count?.n ?? 0);
}

export async function getEndpoint(q: Query, id: number): Promise<WebhookEndpoint> {
  const [row] = await q<EndpointRow>`
    SELECT id, url, events, enabled, consecutive_failures, disabled_reason, disabled_at,
           created_at, created_by
    FROM webhook_endpoints WHERE id = ${id}`;
  if (!row) throw new WebhookError('not-found', `There is no webhook ${id}.`);
  return toEndpoint(row);
}

/** Deletes the endpoint and its delivery log. */
export async function removeEndpoint(q: Query, id: number): Promise<WebhookEndpoint> {
  const endpoint = await getEndpoint(q, id);
  await q`DELETE FROM webhook_deliveries WHERE endpoint_id = ${id}`;
  await q`DELETE FROM webhook_endpoints WHERE id = ${id}`;
  return endpoint;
}

/** Turns sending on or off by hand; on again clears the failure count and any notice. */
export async function setEndpointEnabled(
  q: Query,
  id: number,
  enabled: boolean,
  at: Date,
): Promise<WebhookEndpoint> {
  await getEndpoint(q, id);
  if (enabled)
    await q`UPDATE webhook_endpoints SET enabled = 1, consecutive_failures = 0,
            disabled_at = NULL, disabled_reason = NULL WHERE id = ${id}`;
  else
    await q`UPDATE webhook_endpoints SET enabled = 0, disabled_at = ${at.toISOString()},
            disabled_reason = NULL WHERE id = ${id}`;
  return getEndpoint(q, id);
}

/** A new secret for the endpoint (shown once, as at creation); the old one stops signing. */
export async function rotateSecret(q: Query, id: number): Promise<string> {
  await getEndpoint(q, id);
  const secret = newSecret();
  await q`UPDATE webhook_endpoints SET secret = ${secret} WHERE id = ${id}`;
  return secret;
}

/**
 * Endpoints the deliverer turned off (repeated failures, or a 410 Gone): the dashboard's notice,
 * at most MAX_ENDPOINTS of them.
 */
export async function endpointsTurnedOff(q: Query): Promise<WebhookEndpoint[]> {
  const rows = await q<EndpointRow>`
    SELECT id, url, events, enabled, consecutive_failures, disabled_reason, disabled_at,
           created_at, created_by
    FROM webhook_endpoints WHERE enabled = 0 AND disabled_reason IS NOT NULL ORDER BY id
    LIMIT ${MAX_ENDPOINTS}`;
  return rows.map(toEndpoint);
}

export type DeliveryState = 'pending' | 'delivered' | 'failed';

export type WebhookDelivery = {
  id: number;
  endpointId: number;
  eventId: number;
  type: WebhookEvent;
  state: DeliveryState;
  attempts: number;
  createdAt: string;
  lastAttemptAt: string | null;
  /** The receiver's HTTP status at the last attempt, or null (no answer). */
  lastStatus: number | null;
  /** Why the last attempt failed (refused address, timeout, redirect…), or null. */
  lastError: string | null;
  latencyMs: number | null;
  /** The start of the receiver's last answer. */
  excerpt: string | null;
  /** When it is tried next (pending only). */
  nextAt: string | null;
};

type DeliveryRow = {
  id: number | string;
  endpoint_id: number | string;
  event_id: number | string;
  type: string;
  state: string;
  attempts: number | string;
  created_at: string;
  last_attempt_at: string | null;
  last_status: number | string | null;
  last_error: string | null;
  latency_ms: number | string | null;
  excerpt: string | null;
  next_at: string;
};

const nullableNumber = (value: number | string | null) => (value === null ? null : Number(value));

function toDelivery(row: DeliveryRow): WebhookDelivery {
  const state = row.state as DeliveryState;
  return {
    id: Number(row.id),
    endpointId: Number(row.endpoint_id),
    eventId: Number(row.event_id),
    type: row.type as WebhookEvent,
    state,
    attempts: Number(row.attempts),
    createdAt: row.created_at,
    lastAttemptAt: row.last_attempt_at,
    lastStatus: nullableNumber(row.last_status),
    lastError: row.last_error,
    latencyMs: nullableNumber(row.latency_ms),
    excerpt: row.excerpt,
    nextAt: state === 'pending' ? row.next_at : null,
  };
}

/** The endpoint's delivery log, newest first. */
export async function listDeliveries(
  q: Query,
  endpointId: number,
  limit = LOG_LENGTH,
): Promise<WebhookDelivery[]> {
  await getEndpoint(q, endpointId);
  const rows = await q<DeliveryRow>`
    SELECT id, endpoint_id, event_id, type, state, attempts, created_at, last_attempt_at,
           last_status, last_error, latency_ms, excerpt, next_at
    FROM webhook_deliveries WHERE endpoint_id = ${endpointId}
    ORDER BY id DESC LIMIT ${limit}`;
  return rows.map(toDelivery);
}

/**
 * Sends a delivered or given-up delivery again, with its webhook-id (the receiver's idempotency
 * key) unchanged, as soon as a deliverer claims it. One still pending is on its way already.
 */
export async function redeliver(q: Query, id: number, at: Date): Promise<WebhookDelivery> {
  const [row] = await q<DeliveryRow>`
    SELECT id, endpoint_id, event_id, type, state, attempts, created_at, last_attempt_at,
           last_status, last_error, latency_ms, excerpt, next_at
    FROM webhook_deliveries WHERE id = ${id}`;
  if (!row) throw new WebhookError('not-found', `There is no delivery ${id}.`);
  if (row.state === 'pending')
    throw new WebhookError('already-pending', `Delivery ${id} is still being tried.`);
  const stamp = at.toISOString();
  await q`UPDATE webhook_deliveries SET state = 'pending', attempts = 0, next_at = ${stamp},
          claimed_until = NULL, claimed_by = NULL WHERE id = ${id} AND state <> 'pending'`;
  return toDelivery({ ...row, state: 'pending', attempts: 0, next_at: stamp });
}

/** What the dispatcher's subscriber writes for one content event. */
export type WebhookMessage = {
  eventId: number;
  type: WebhookEvent;
  /** The page it is about, or 0 for the site's settings: deliveries are in order per key. */
  pageKey: number;
  /** The JSON body, as sent at every attempt. */
  body: string;
};

/**
 * One pending delivery per enabled endpoint subscribed to the message's type; an event
 * dispatched again (at least once) adds none. Returns how many are new.
 */
export async function enqueueDeliveries(
  q: Query,
  message: WebhookMessage,
  at: Date,
): Promise<number> {
  const stamp = at.toISOString();
  // One statement for every endpoint: a row at a time, each its own commit, took seconds for
  // thousands of endpoints before the first could be sent. The events column is space-separated
  // names (an underscore in LIKE matches itself too; no two names differ only there).
  const rows = await q`
    INSERT INTO webhook_deliveries (endpoint_id, event_id, type, page_key, body, created_at, next_at)
    SELECT id, CAST(${message.eventId} AS BIGINT), CAST(${message.type} AS TEXT),
           CAST(${message.pageKey} AS BIGINT), CAST(${message.body} AS TEXT),
           CAST(${stamp} AS TEXT), CAST(${stamp} AS TEXT)
    FROM webhook_endpoints
    WHERE enabled = 1 AND ' ' || events || ' ' LIKE ${`% ${message.type} %`}
    ORDER BY id
    ON CONFLICT (endpoint_id, event_id) DO NOTHING
    RETURNING id`;
  return rows.length;
}

export type ClaimedDelivery = {
  id: number;
  endpointId: number;
  eventId: number;
  url: string;
  secret: string;
  body: string;
  /** This attempt's number (1 for the first). */
  attempts: number;
};

type ClaimedRow = {
  id: number | string;
  endpoint_id: number | string;
  event_id: number | string;
  body: string;
  attempts: number | string;
};

/**
 * Takes up to `limit` deliveries that are due, free, for an enabled endpoint, and first of
 * their endpoint and page among those pending, for one lease held by `owner`. Endpoints whose
 * last attempt failed come after the others: a receiver that is down or hangs waits behind the
 * healthy ones rather than taking the deliverer's places before them (the order per endpoint
 * and page is the NOT EXISTS's, whatever the order here). Then by event, then by row: the
 * endpoints registered first go first, not in whatever order the engine finds them. On PostgreSQL
 * the candidates skip rows another instance is claiming this instant; the outer re-check is
 * what makes a claim single either way.
 */
export async function claimDeliveries(
  db: Pick<Database, 'engine' | 'query'>,
  now: Date,
  owner: string,
  limit = 10,
): Promise<ClaimedDelivery[]> {
  const q = db.query;
  const stamp = now.toISOString();
  const until = new Date(now.getTime() + LEASE_MS).toISOString();
  const rows: ClaimedRow[] =
    db.engine === 'postgres'
      ? // The pick is a materialized CTE, done once: as `IN (SELECT … LIMIT … SKIP LOCKED)` the
        // planner may run it again per row and take more than the limit (a test saw 2 for 1).
        await q<ClaimedRow>`
          WITH picked AS MATERIALIZED (
            SELECT d.id FROM webhook_deliveries d
            JOIN webhook_endpoints e ON e.id = d.endpoint_id
            WHERE d.state = 'pending' AND e.enabled = 1 AND d.next_at <= ${stamp}
              AND (d.claimed_until IS NULL OR d.claimed_until <= ${stamp})
              AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p
                WHERE p.endpoint_id = d.endpoint_id AND p.page_key = d.page_key
                  AND p.state = 'pending' AND p.event_id < d.event_id)
            ORDER BY CASE WHEN e.consecutive_failures = 0 THEN 0 ELSE 1 END, d.event_id, d.id
            LIMIT ${limit} FOR UPDATE OF d SKIP LOCKED)
          UPDATE webhook_deliveries SET claimed_until = ${until}, claimed_by = ${owner},
            attempts = attempts + 1
          WHERE id IN (SELECT id FROM picked)
            AND state = 'pending' AND (claimed_until IS NULL OR claimed_until <= ${stamp})
          RETURNING id, endpoint_id, event_id, body, attempts`
      : await q<ClaimedRow>`
          UPDATE webhook_deliveries SET claimed_until = ${until}, claimed_by = ${owner},
            attempts = attempts + 1
          WHERE id IN (
            SELECT d.id FROM webhook_deliveries d
            JOIN webhook_endpoints e ON e.id = d.endpoint_id
            WHERE d.state = 'pending' AND e.enabled = 1 AND d.next_at <= ${stamp}
              AND (d.claimed_until IS NULL OR d.claimed_until <= ${stamp})
              AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p
                WHERE p.endpoint_id = d.endpoint_id AND p.page_key = d.page_key
                  AND p.state = 'pending' AND p.event_id < d.event_id)
            ORDER BY CASE WHEN e.consecutive_failures = 0 THEN 0 ELSE 1 END, d.event_id, d.id
            LIMIT ${limit})
            AND state = 'pending' AND (claimed_until IS NULL OR claimed_until <= ${stamp})
          RETURNING id, endpoint_id, event_id, body, attempts`;
  if (rows.length === 0) return [];
  const endpoints = new Map<number, { url: string; secret: string }>();
  for (const row of rows) {
    const id = Number(row.endpoint_id);
    if (endpoints.has(id)) continue;
    const [endpoint] = await q<{ url: string; secret: string }>`
      SELECT url, secret FROM webhook_endpoints WHERE id = ${id}`;
    if (endpoint) endpoints.set(id, endpoint);
  }
  return rows
    .flatMap((row) => {
      const endpoint = endpoints.get(Number(row.endpoint_id));
      if (!endpoint) return [];
      return [
        {
          id: Number(row.id),
          endpointId: Number(row.endpoint_id),
          eventId: Number(row.event_id),
          url: endpoint.url,
          secret: endpoint.secret,
          body: row.body,
          attempts: Number(row.attempts),
        },
      ];
    })
    .sort((a, b) => a.eventId - b.eventId);
}

export type AttemptOutcome = {
  at: Date;
  /** The receiver's status, or null when there was no answer. */
  status: number | null;
  latencyMs: number;
  excerpt: string;
  /** Why it failed; null: a 2xx. */
  error: string | null;
};

/**
 * Records an attempt of a claimed delivery. A success clears the endpoint's failure count; a
 * failure waits its backoff or, the last attempt, gives the delivery up; the endpoint is turned
 * off when a delivery is given up, it fails DISABLE_AFTER_FAILURES times in a row, or it
 * answers 410 Gone (the delivery stays pending: it goes if the endpoint is turned on again).
 * Returns what became of it, and the wait before the next attempt when there is one.
 */
export async function recordAttempt(
  db: Pick<Database, 'transaction'>,
  delivery: ClaimedDelivery,
  outcome: AttemptOutcome,
): Promise<{ state: DeliveryState; retryInMs: number | null; endpointTurnedOff: string | null }> {
  const stamp = outcome.at.toISOString();
  const excerpt = outcome.excerpt.slice(0, 500);
  return db.transaction(async (q) => {
    if (outcome.error === null) {
      await q`UPDATE webhook_deliveries SET state = 'delivered', claimed_until = NULL,
              last_attempt_at = ${stamp}, last_status = ${outcome.status}, last_error = NULL,
              latency_ms = ${outcome.latencyMs}, excerpt = ${excerpt}
              WHERE id = ${delivery.id}`;
      await q`UPDATE webhook_endpoints SET consecutive_failures = 0
              WHERE id = ${delivery.endpointId}`;
      return { state: 'delivered' as const, retryInMs: null, endpointTurnedOff: null };
    }
    const wait = backoffAfter(delivery.attempts);
    const state: DeliveryState = wait === null ? 'failed' : 'pending';
    const next = new Date(outcome.at.getTime() + (wait ?? 0)).toISOString();
    await q`UPDATE webhook_deliveries SET state = ${state}, claimed_until = NULL,
            next_at = ${next}, last_attempt_at = ${stamp}, last_status = ${outcome.status},
            last_error = ${outcome.error.slice(0, 500)}, latency_ms = ${outcome.latencyMs},
            excerpt = ${excerpt}
            WHERE id = ${delivery.id}`;
    const [counted] = await q<{ consecutive_failures: number | string; enabled: number | string }>`
      UPDATE webhook_endpoints SET consecutive_failures = consecutive_failures + 1
      WHERE id = ${delivery.endpointId} RETURNING consecutive_failures, enabled`;
    let reason: string | null = null;
    // A 410 is the receiver saying it is gone for good (Standard Webhooks senders stop there):
    // another day of attempts would only be noise in its logs.
    if (outcome.status === 410)
      reason = 'the receiver answered 410 Gone: it asks for no more deliveries';
    else if (state === 'failed')
      reason = `every attempt of delivery ${delivery.id} failed over a day (last: ${outcome.error})`;
    else if (Number(counted?.consecutive_failures ?? 0) >= DISABLE_AFTER_FAILURES)
      reason = `${DISABLE_AFTER_FAILURES} attempts in a row failed (last: ${outcome.error})`;
    if (reason !== null && Number(counted?.enabled ?? 0) === 1)
      await q`UPDATE webhook_endpoints SET enabled = 0, disabled_at = ${stamp},
              disabled_reason = ${reason.slice(0, 500)} WHERE id = ${delivery.endpointId}`;
    else reason = null;
    return { state, retryInMs: wait, endpointTurnedOff: reason };
  });
}

/** Deletes deliveries finished (delivered or given up) over KEEP_FINISHED_MS ago. */
export async function pruneDeliveries(q: Query, now: Date): Promise<void> {
  const before = new Date(now.getTime() - KEEP_FINISHED_MS).toISOString();
  await q`DELETE FROM webhook_deliveries WHERE state <> 'pending' AND created_at < ${before}`;
}
