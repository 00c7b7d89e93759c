// Owns content events (docs/decisions/0026): the outbox row a change writes in its own
// transaction (`recordEvent`, so an event exists exactly when its change committed), and the
// dispatcher that hands undispatched events, in id order, to the process's subscribers and then
// marks them dispatched. Delivery is at least once: a subscriber that throws leaves its event
// (and the ones after it, to keep the order) for the next round, logged, never thrown. On
// PostgreSQL a round claims its events with FOR UPDATE SKIP LOCKED, so two instances never
// dispatch one event twice; on SQLite one process dispatches, one round at a time.
// scheduler.ts runs a round at each of its checks.
import 'server-only';
import { recordAudit } from '../audit/audit';
import type { Database, Query } from '../data/db';
import { log } from '../observability/log';

export type ContentEventType =
  | 'page.published'
  | 'page.unpublished'
  | 'page.renamed'
  | 'page.deleted'
  | 'page.scheduled_publish_done'
  | 'page.scheduled_publish_missed'
  | 'settings.changed';

export type ContentEvent = {
  id: number;
  type: ContentEventType;
  /** The page it is about (it may be deleted since), or null for the site's settings. */
  pageId: number | null;
  /** The page's slug when the event was written (after a rename: the new one). */
  slug: string | null;
  /** What else there is to know: revision id, old and new slug, due time, reason… */
  payload: Record<string, unknown>;
  /** Who made the change (for a schedule: on whose behalf), when known. */
  editor: string | null;
  createdAt: string;
};

/** A change's event, as its transaction writes it. */
export type NewContentEvent = {
  type: ContentEventType;
  pageId?: number | null;
  slug?: string | null;
  payload?: Record<string, unknown>;
  editor?: string | null;
  at: string;
};

/** Writes the event inside the caller's transaction: it commits or rolls back with the change. */
export async function recordEvent(q: Query, event: NewContentEvent): Promise<void> {
  await q`
    INSERT INTO events (type, page_id, slug, payload, editor, created_at)
    VALUES (${event.type}, ${event.pageId ?? null}, ${event.slug ?? null},
            ${JSON.stringify(event.payload ?? {})}, ${event.editor ?? null}, ${event.at})`;
  // The audit trail's copy, in the same transaction (docs/decisions/0041): every event is
  // something an Administrator may need to account for, with who and from where.
  await recordAudit(q, {
    action: event.type,
    actor: event.editor ? { email: event.editor } : undefined,
    pageId: event.pageId,
    slug: event.slug,
    detail: event.payload,
    at: event.at,
  });
}

const committedListeners = new Set<() => void>();

/**
 * Says, after a write that changed what visitors see has committed, that it may have written
 * events: this process's dispatcher runs a round now instead of at its next check (seconds
 * away), so a webhook follows a publish at once. Other instances and the CLI's writes are
 * found at the next check.
 */
export function eventsCommitted(): void {
  for (const listener of committedListeners) listener();
}

export function onEventsCommitted(listener: () => void): () => void {
  committedListeners.add(listener);
  return () => committedListeners.delete(listener);
}

/** Takes one event; throwing (or rejecting) leaves it to be delivered again. */
export type EventSubscriber = (event: ContentEvent) => void | Promise<void>;

type EventRow = {
  id: number | string;
  type: ContentEventType;
  page_id: number | string | null;
  slug: string | null;
  payload: string;
  editor: string | null;
  created_at: string;
};

function toEvent(row: EventRow): ContentEvent {
  let payload: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(row.payload);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      payload = parsed as Record<string, unknown>;
  } catch {}
  return {
    id: Number(row.id),
    type: row.type,
    pageId: row.page_id === null ? null : Number(row.page_id),
    slug: row.slug,
    payload,
    editor: row.editor,
    createdAt: row.created_at,
  };
}

/** Events a round takes at most; the rest wait for the next round. */
const BATCH = 100;

export function createEventDispatcher(
  opened: () => Promise<Database>,
  now: () => Date = () => new Date(),
) {
  const subscribers: EventSubscriber[] = [];
  let round: Promise<number> = Promise.resolve(0);

  /**
   * Hands each event to every subscriber in turn. Returns the events delivered whole; stops at
   * the first that a subscriber refused, so no later event overtakes it.
   */
  async function deliver(
    events: readonly ContentEvent[],
    markDispatched: (id: number) => Promise<void>,
  ): Promise<number> {
    let delivered = 0;
    for (const event of events) {
      try {
        for (const subscriber of [...subscribers]) await subscriber(event);
      } catch (error) {
        log.warn('content event not delivered; tried again at the next round', {
          event: event.id,
          type: event.type,
          reason: error instanceof Error ? error.message : String(error),
        });
        break;
      }
      await markDispatched(event.id);
      delivered += 1;
    }
    return delivered;
  }

  async function dispatchNow(limit: number): Promise<number> {
    const db = await opened();
    const stamp = () => now().toISOString();
    if (db.engine === 'postgres') {
      // Not db.transaction: that one takes the write lock every content change waits for, and
      // subscribers run while this holds its rows. The row locks alone keep another instance's
      // round off these events until this one commits them as dispatched.
      return db.client.begin(async (tx) => {
        const rows: EventRow[] = await tx`
          SELECT id, type, page_id, slug, payload, editor, created_at FROM events
          WHERE dispatched_at IS NULL ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
        return deliver(rows.map(toEvent), async (id) => {
          await tx`UPDATE events SET dispatched_at = ${stamp()} WHERE id = ${id}`;
        });
      }) as Promise<number>;
    }
    // SQLite: no transaction around the round (it would hold the one write lock while
    // subscribers run); this process is the only dispatcher and runs one round at a time.
    const rows = await db.query<EventRow>`
      SELECT id, type, page_id, slug, payload, editor, created_at FROM events
      WHERE dispatched_at IS NULL ORDER BY id LIMIT ${limit}`;
    return deliver(rows.map(toEvent), async (id) => {
      await db.query`UPDATE events SET dispatched_at = ${stamp()}
                     WHERE id = ${id} AND dispatched_at IS NULL`;
    });
  }

  return {
    /** Adds a subscriber for this process's rounds; the function returned removes it. */
    subscribe(subscriber: EventSubscriber): () => void {
      subscribers.push(subscriber);
      return () => {
        const at = subscribers.indexOf(subscriber);
        if (at >= 0) subscribers.splice(at, 1);
      };
    },

    /**
     * One round: delivers what is undispatched (up to `limit`, oldest first) and returns how
     * many were dispatched. Rounds in one process run one after another.
     */
    dispatch(limit = BATCH): Promise<number> {
      const next = round.catch(() => 0).then(() => dispatchNow(limit));
      round = next;
      return next;
    },
  };
}

export type EventDispatcher = ReturnType<typeof createEventDispatcher>;
