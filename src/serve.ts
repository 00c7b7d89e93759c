// The production server: Folio's build behind Bun.serve. `bun run start` runs this module from
// the build (dist/server/serve.js, an entry of Waku's server bundle), so every module a request
// touches exists once in the process: the server, its start-up and Waku's handler share them.
import path from 'node:path';
import { asScheduler } from './lib/audit/audit';
import { pruneAudit } from './lib/audit/trail';
import { createCoeditRegistry } from './lib/coedit/documents';
import { contentStore } from './lib/content/content';
import { onEventsCommitted } from './lib/content/events';
import { startScheduler } from './lib/content/scheduler';
import { seedDemoContent } from './lib/content/seed';
import { followContentVersion, structureListenWarnings } from './lib/data/content-version';
import {
  ANSWER_TIMEOUT_MS,
  announceServer,
  BUSY_TIMEOUT_MS,
  closeDatabase,
  type Database,
  getDatabase,
  maskedUrl,
  setBusyTimeout,
} from './lib/data/db';
import { IDLE_TIMEOUT_SECONDS } from './lib/http/connection-limits';
import { createLiveEditing, type SocketData } from './lib/http/live-editing';
import { purgeTargetOf, startPurger } from './lib/http/purge';
import { loadStaticAssets } from './lib/http/static-assets';
import { log } from './lib/observability/log';
import { startServerMonitoring, stopServerMonitoring } from './lib/observability/sentry-server';
import { getEnv } from './lib/runtime/env';
import { socialCards } from './lib/social-card/card-store';
import { startDeliverer } from './lib/webhooks/deliverer';
import { frontDoor } from './waku.server';

const SHUTDOWN_GRACE_MS = 10_000;

/** Why Bun.serve could not listen, for the one line that says so; null for anything else. */
function listenProblem(error: unknown, env: { PORT: number; HOST?: string }): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'EADDRINUSE')
    return `port ${env.PORT} is already in use (another server is listening there); stop it or choose another PORT`;
  if (code === 'EADDRNOTAVAIL')
    return `HOST ${env.HOST} is not an address of this machine; choose one it has (127.0.0.1, or unset for every interface)`;
  return null;
}

/** Unset, 0.0.0.0 or ::: reachable from any network the machine is on. */
function listensEverywhere(host: string | undefined): boolean {
  return host === undefined || host === '0.0.0.0' || host === '::' || host === '[::]';
}

async function serve() {
  const env = getEnv();
  // Before Bun.serve: the SDK wraps it to trace every request.
  startServerMonitoring();
  // Open (and migrate) the database before accepting traffic, so a bad DATABASE_URL fails now.
  let db: Database;
  try {
    db = await getDatabase();
  } catch (error) {
    log.error(`cannot start: the database at ${maskedUrl(env.DATABASE_URL)} cannot be opened`, {
      reason: error instanceof Error ? error.message : String(error),
    });
    await stopServerMonitoring();
    process.exit(1);
  }
  const withdrawServer = announceServer(db);
  if (await seedDemoContent(db, contentStore())) log.info('seeded demo content');
  // The render cache keys by this version; it follows writes from every process from now on.
  structureListenWarnings();
  const contentVersion = await followContentVersion(db);
  await setBusyTimeout(db, BUSY_TIMEOUT_MS.server);
  // Migrated and seeded: from now on a database that takes a statement and never answers
  // (stopped, not down) is refused after a few seconds instead of holding requests.
  db.setAnswerTimeout(ANSWER_TIMEOUT_MS);
  frontDoor.serveAssets(loadStaticAssets(path.resolve('dist/public/assets')));
  // A page unpublished or deleted takes its generated social cards off this machine's disk.
  contentStore().subscribeToEvents((event) => socialCards().onContentEvent(event));
  // Webhooks: each content event becomes a delivery per subscribed endpoint, sent by whichever
  // instance claims it (0046). Subscribed before the scheduler's first round: an event that
  // round dispatches without it would never become a webhook.
  const deliverer = startDeliverer(db, { allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE === '1' });
  const unsubscribeWebhooks = contentStore().subscribeToEvents(deliverer.subscriber);
  // Anything that fell due while no server ran is published now, then every few seconds.
  // Inside asScheduler, what its rounds write to the audit trail says `scheduler` as its address;
  // each round also deletes entries past AUDIT_RETENTION_DAYS, a bounded batch at a time.
  const scheduler = await asScheduler(() =>
    startScheduler(contentStore(), {
      intervalMs: env.SCHEDULE_CHECK_SECONDS * 1000,
      alsoEachRound: () => pruneAudit(db.query, { retentionDays: env.AUDIT_RETENTION_DAYS }),
    }),
  );

  // This process's own commits are dispatched at once: a webhook follows a publish in
  // milliseconds, not at the next check.
  const stopKicks = onEventsCommitted(() => scheduler.dispatchSoon());

  // A shared cache in front is told what each committed change made stale (0045).
  const purgeTarget = purgeTargetOf(env);
  const purger = purgeTarget ? startPurger(db, purgeTarget) : null;

  // Co-editing (0050): the shared documents this instance opens, following what other
  // instances store (PostgreSQL), behind the WebSocket at /preview/<slug>?live.
  const coedit = createCoeditRegistry(db, contentStore());
  await coedit.follow();
  const live = createLiveEditing({
    registry: coedit,
    database: getDatabase,
    store: contentStore,
    siteUrl: env.SITE_URL,
  });
  frontDoor.serveLive(live.upgrade);

  let server: Bun.Server<SocketData>;
  try {
    server = Bun.serve({
      port: env.PORT,
      hostname: env.HOST,
      // Bun's production mode would share a busy port with whatever holds it (SO_REUSEPORT);
      // a second Folio on the same port is a mistake to report, not a load balancer.
      reusePort: false,
      development: false,
      // A client that stops reading holds its socket this long at most (connection-limits.ts).
      idleTimeout: IDLE_TIMEOUT_SECONDS,
      fetch: (request, bunServer) => frontDoor.fetchOrUpgrade(request, bunServer),
      websocket: live.websocket,
      // Last resort: anything that escapes the front door. Never a stack trace in a response.
      error(error) {
        log.error('unhandled server error', { error });
        return new Response('Internal Server Error\n', {
          status: 500,
          headers: { 'content-type': 'text/plain' },
        });
      },
    });
  } catch (error) {
    const problem = listenProblem(error, env);
    if (!problem) throw error;
    log.error(`cannot start: ${problem}`);
    await coedit.stop();
    stopKicks();
    await scheduler.stop();
    unsubscribeWebhooks();
    await deliverer.stop();
    await purger?.stop();
    await stopServerMonitoring();
    await contentVersion.stop();
    await closeDatabase();
    withdrawServer();
    process.exit(1);
  }
  // Before `listening`: whoever waits for that line has read the warning too.
  if (env.TRUST_PROXY > 0 && listensEverywhere(env.HOST))
    log.warn(
      'TRUST_PROXY is set and Folio listens on every interface: a client that reaches this instance directly, not through the proxy, can claim any address and scheme in X-Forwarded-*; set HOST to the address the proxy reaches (127.0.0.1 on the same machine)',
    );
  log.info('listening', { url: server.url.href, pid: process.pid });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('shutting down', { signal });
    const timer = setTimeout(() => server.stop(true), SHUTDOWN_GRACE_MS);
    // Its editors are told to reconnect (1012), to another instance or to this one restarted;
    // pending drafts are written first.
    await coedit.stop();
    await server.stop(false);
    clearTimeout(timer);
    stopKicks();
    await scheduler.stop();
    unsubscribeWebhooks();
    await deliverer.stop();
    await purger?.stop();
    await stopServerMonitoring();
    await contentVersion.stop();
    await closeDatabase();
    withdrawServer();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

await serve();
