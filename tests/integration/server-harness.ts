// Starts the production build (`bun server.ts`) as a child process on a free port with its own
// database and environment, for tests that need a real server and its log.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createContentStore } from '../../src/lib/content';
import { openDatabase } from '../../src/lib/db';
import { seedDemoContent } from '../../src/lib/seed';

export const HAS_BUILD = existsSync(path.resolve('dist/server/index.js'));

export type RunningServer = {
  url: string;
  dbPath: string;
  log: () => string;
  /** Sends SIGTERM and waits for the process to exit. */
  stop: () => Promise<void>;
  exitCode: () => number | null;
};

export function seededDatabase(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'folio-it-'));
  const dbPath = path.join(dir, 'folio.db');
  const db = openDatabase(`sqlite:${dbPath}`);
  seedDemoContent(createContentStore(db));
  db.close();
  return dbPath;
}

export async function startBuiltServer(
  env: Record<string, string>,
  dbPath = seededDatabase(),
): Promise<RunningServer> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const child = Bun.spawn(['bun', 'server.ts'], {
    env: { ...process.env, ...env, PORT: String(port), DATABASE_URL: `sqlite:${dbPath}` },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let output = '';
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) output += decoder.decode(chunk);
  };
  void collect(child.stdout);
  void collect(child.stderr);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/robots.txt`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill();
      throw new Error(`server did not start:\n${output}`);
    }
    await Bun.sleep(50);
  }
  return {
    url,
    dbPath,
    log: () => output,
    exitCode: () => child.exitCode,
    stop: async () => {
      child.kill('SIGTERM');
      await child.exited;
    },
  };
}

/** Polls `probe` until it returns a value (or the time is up). */
export async function waitFor<T>(probe: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await Bun.sleep(50);
  }
}
