// Owns scheduled publishing's clock: every server process asks the store, at start and then
// every SCHEDULE_CHECK_SECONDS, to publish what is due. The claim that makes each publish
// happen once lives in the store's transaction (schedules.ts `publishDue`), so any number of
// instances (and `bun run folio page publish-due`) may ask at the same time. Each check also
// runs one round of the content-events dispatcher (events.ts), which claims its own events.
import 'server-only';
import { isDatabaseBusy, isDatabaseUnavailable } from '../data/db-errors';
import { reportUnexpectedError } from '../observability/errors';
import { log } from '../observability/log';
import type { ContentStore } from './content';
import { isContentError } from './content';

export type Scheduler = {
  /** Runs a round of the events dispatcher now (after a commit), not at the next check. */
  dispatchSoon(): void;
  stop(): Promise<void>;
};

/**
 * Publishes what is due now, then keeps checking every `intervalMs`. Resolves after the first
 * check, so a server starts serving with anything that fell due while none ran already out.
 */
export async function startScheduler(
  store: ContentStore,
  {
    intervalMs,
    alsoEachRound,
  }: {
    intervalMs: number;
    /** Housekeeping at the same pace, after the events (serve.ts: the audit trail's retention). */
    alsoEachRound?: () => Promise<unknown>;
  },
): Promise<Scheduler> {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;

  let waiting = false;
  // A busy or unreachable database is tried again at the next check (said once per outage,
  // not at every check); anything else is a bug.
  const failed = (error: unknown, where: string) => {
    if (isContentError(error) || isDatabaseBusy(error) || isDatabaseUnavailable(error)) {
      if (!waiting)
        log.warn('scheduled publishing waits for the database', {
          reason: error instanceof Error ? error.message : String(error),
        });
      waiting = true;
    } else reportUnexpectedError(error, { where });
  };
  const tick = async () => {
    try {
      for (const done of await store.publishDue()) {
        if (done.refused !== undefined) {
          log.warn('scheduled publish refused', {
            slug: done.slug,
            due: done.publishAt,
            reason: done.refused,
          });
          continue;
        }
        log.info('published by schedule', {
          slug: done.slug,
          due: done.publishAt,
          lateMs: Date.now() - Date.parse(done.publishAt),
          onBehalfOf: done.scheduledBy,
        });
      }
      waiting = false;
    } catch (error) {
      failed(error, 'scheduler');
    }
    // Content events (events.ts) go out at the same pace, whatever the publishing did: a
    // failing subscriber is the dispatcher's to log; only the database's trouble comes here.
    try {
      await store.dispatchEvents();
    } catch (error) {
      failed(error, 'content events');
    }
    try {
      await alsoEachRound?.();
    } catch (error) {
      failed(error, 'scheduler housekeeping');
    }
  };

  // One kick at a time: kicks during a pending one are covered by it (the dispatcher takes
  // every undispatched event, oldest first, and runs its rounds one after another).
  let kicked = false;
  const dispatchSoon = () => {
    if (stopped || kicked) return;
    kicked = true;
    setTimeout(() => {
      kicked = false;
      if (stopped) return;
      store.dispatchEvents().catch((error: unknown) => failed(error, 'content events'));
    }, 0);
  };

  const loop = () => {
    if (stopped) return;
    running = tick().finally(() => {
      if (!stopped) timer = setTimeout(loop, intervalMs);
    });
  };
  loop();
  await running;

  return {
    dispatchSoon,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  } satisfies Scheduler;
}
