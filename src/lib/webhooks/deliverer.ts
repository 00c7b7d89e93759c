// Owns sending webhooks from a server process (docs/decisions/0046): the events dispatcher's
// subscriber that turns each content event into one delivery row per subscribed endpoint, and
// the loop that claims due rows (store.ts), sends them (send.ts) and records each attempt, up
// to MAX_IN_FLIGHT at once, each freed place claimed again at once. Each server runs one: at
// once after its own dispatch adds rows, and at a short poll for retries and rows another
// instance added. A receiver that fails is the Administrator's to fix: it
// shows in the delivery log, is logged at warn when given up, and never reaches Sentry.
import 'server-only';
import { hostname } from 'node:os';
import type { EventSubscriber } from '../content/events';
import type { Database } from '../data/db';
import { log } from '../observability/log';
import { messageOf } from './messages';
import { sendWebhook } from './send';
import {
  type ClaimedDelivery,
  claimDeliveries,
  enqueueDeliveries,
  pruneDeliveries,
  recordAttempt,
} from './store';

/** How often each server looks for due deliveries (retries, and other instances' rows). */
const POLL_MS = 1_000;
/**
 * Sends in flight at once per server. Each is one socket waiting at most 10 s; a place that
 * frees is claimed again at once, so a receiver that hangs holds one place, not a batch.
 */
export const MAX_IN_FLIGHT = 16;
/** How often the finished deliveries past their month are deleted. */
const PRUNE_EVERY_MS = 5 * 60_000;

export type Deliverer = {
  /**
   * Claims what is due, as many as there are free places, and starts sending it; resolves once
   * claimed (the sends go on: stop() waits for them).
   */
  round(): Promise<void>;
  /** The subscriber to hand the events dispatcher (content store's subscribeToEvents). */
  subscriber: EventSubscriber;
  stop(): Promise<void>;
};

/** The idempotency key a delivery carries: one per event, the same at every attempt. */
export function messageIdOf(eventId: number): string {
  return `evt_${eventId}`;
}

export function startDeliverer(
  db: Database,
  { allowPrivate, now = () => new Date() }: { allowPrivate: boolean; now?: () => Date },
): Deliverer {
  const owner = `${hostname()}:${process.pid}`;
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let waiting = false;
  const inFlight = new Set<Promise<void>>();
  let prunedAt = Number.NEGATIVE_INFINITY;

  async function deliver(delivery: ClaimedDelivery) {
    const answer = await sendWebhook({
      url: delivery.url,
      secret: delivery.secret,
      messageId: messageIdOf(delivery.eventId),
      body: delivery.body,
      at: now(),
      allowPrivate,
    });
    const recorded = await recordAttempt(db, delivery, { at: now(), ...answer });
    if (recorded.state === 'failed')
      log.warn('a webhook was given up after a day of attempts', {
        endpoint: delivery.endpointId,
        delivery: delivery.id,
        event: delivery.eventId,
        reason: answer.error,
      });
    if (recorded.endpointTurnedOff !== null)
      log.warn('a webhook endpoint was turned off', {
        endpoint: delivery.endpointId,
        // Its origin only: a receiver's URL often carries a token in its query.
        origin: new URL(delivery.url).origin,
        reason: recorded.endpointTurnedOff,
      });
    if (recorded.retryInMs !== null && recorded.state === 'pending')
      setTimeout(() => void round(), recorded.retryInMs + 10).unref?.();
  }

  /**
   * Claims as many due deliveries as there are free places and starts them without waiting for
   * their answers (a hostile pass's receivers that hang held each batch of ten for 10 s, and a
   * healthy receiver behind them for minutes). Each that finishes frees its place and asks for
   * another round. The claim keeps the order per endpoint and page: the next delivery for one is
   * not claimed while the one before it is pending, in flight included.
   */
  async function once() {
    const free = MAX_IN_FLIGHT - inFlight.size;
    if (free > 0) {
      const claimed = await claimDeliveries(db, now(), owner, free);
      for (const delivery of claimed) {
        const sending = deliver(delivery)
          .catch((error: unknown) => {
            // The database out of reach while recording: the lease ends and it is sent again.
            log.warn('a webhook attempt could not be recorded; it is tried again', {
              delivery: delivery.id,
              reason: error instanceof Error ? error.message : String(error),
            });
          })
          .finally(() => {
            inFlight.delete(sending);
            void round();
          });
        inFlight.add(sending);
      }
    }
    // Now and then, not every round: the log keeps a month.
    if (Date.now() - prunedAt >= PRUNE_EVERY_MS) {
      prunedAt = Date.now();
      await pruneDeliveries(db.query, now());
    }
  }

  /** Rounds run one at a time; a kick during one runs another after it. */
  function round(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = once()
      .then(() => {
        waiting = false;
      })
      .catch((error: unknown) => {
        if (!waiting)
          log.warn('webhooks wait for the database', {
            reason: error instanceof Error ? error.message : String(error),
          });
        waiting = true;
      })
      .finally(() => {
        running = null;
        if (again && !stopped) {
          again = false;
          void round();
        }
      });
    return running;
  }

  const subscriber: EventSubscriber = async (event) => {
    const message = await messageOf(db.query, event);
    if (message === null) return;
    if ((await enqueueDeliveries(db.query, message, now())) > 0) void round();
  };

  const poll = () => {
    if (stopped) return;
    void round().finally(() => {
      if (!stopped) timer = setTimeout(poll, POLL_MS);
    });
  };
  poll();

  return {
    round,
    subscriber,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      await Promise.all([...inFlight]);
    },
  };
}
