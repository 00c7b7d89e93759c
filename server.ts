// Production server: the built Waku handler behind Bun.serve, with start-up checks and a
// graceful shutdown. Run it from the project root (Waku's static root, dist/public, is relative).
import path from 'node:path';
import * as Sentry from '@sentry/bun';
import { sentryEnabled } from './src/instrument.server';
import { closeDatabase, getDatabase } from './src/lib/db';
import { getEnv } from './src/lib/env';
import { applyBaseHeaders } from './src/lib/front-door';
import { log } from './src/lib/log';
import { registeredRenderCache } from './src/lib/render-cache';
import { loadStaticAssets } from './src/lib/static-assets';

type WakuFetch = (
  env: Record<string, string | undefined>,
  request: Request,
  ...rest: unknown[]
) => Promise<Response>;

const SHUTDOWN_GRACE_MS = 10_000;

export async function startServer() {
  const env = getEnv();
  // Open (and migrate) the database before accepting traffic, so a bad DATABASE_URL fails now.
  getDatabase();
  const entryPath = path.resolve('dist/server/index.js');
  const { INTERNAL_runFetch: runFetch } = (await import(entryPath)) as {
    INTERNAL_runFetch: WakuFetch;
  };

  const assets = loadStaticAssets(path.resolve('dist/public/assets'));

  const server = Bun.serve({
    port: env.PORT,
    development: false,
    fetch(request, bunServer) {
      // Hashed assets and cache hits skip Waku and Hono entirely: bytes straight from memory.
      const hit =
        (request.url.includes('/assets/') ? assets.lookup(request) : null) ??
        registeredRenderCache()?.lookup(request);
      if (hit) {
        // Stored entries already carry the base headers; HSTS only matters over HTTPS.
        const https =
          request.url.startsWith('https:') || request.headers.get('x-forwarded-proto') === 'https';
        return https ? applyBaseHeaders(hit, { https }) : hit;
      }
      return runFetch(Bun.env, request, bunServer);
    },
    // Last resort: anything that escapes Waku and Hono. Never a stack trace in the response.
    error(error) {
      log.error('unhandled server error', { error });
      return new Response('Internal Server Error\n', {
        status: 500,
        headers: { 'content-type': 'text/plain' },
      });
    },
  });
  log.info('listening', { url: server.url.href });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('shutting down', { signal });
    const timer = setTimeout(() => server.stop(true), SHUTDOWN_GRACE_MS);
    await server.stop(false);
    clearTimeout(timer);
    if (sentryEnabled) await Sentry.close(2000);
    closeDatabase();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  return server;
}

if (import.meta.main) await startServer();
