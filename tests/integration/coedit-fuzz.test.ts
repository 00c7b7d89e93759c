// The convergence fuzz test of co-editing (issue 30, docs/decisions/0050): simulated editors
// (a Y.Doc each, y-protocols over a real WebSocket) on servers started as the README starts
// them — one on SQLite, two instances on one database on PostgreSQL, the editors spread over
// both — make random concurrent inserts and deletes, drop and reopen their connections, edit
// while disconnected, and one instance is killed (SIGKILL) and started again mid-run. At the
// end every editor's text is the same, the page's stored draft is that text, and every update a
// server acknowledged is in it. Seeded: a failure names its seed, and
// COEDIT_FUZZ_SEEDS=<seed> replays it. COEDIT_FUZZ_OPS=5000 runs thousands of operations
// (a soak, not the gate).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import * as Y from 'yjs';
import { applyStored } from '../../src/lib/coedit/storage';
import { createContentStore } from '../../src/lib/content/content';
import { type Database, openDatabase } from '../../src/lib/data/db';
import { addEditor, createSession } from '../../src/lib/editors/accounts';
import { SESSION_COOKIE } from '../../src/lib/http/routes';
import { CoeditClient, missingFrom } from '../coedit-client';
import { TEST_ENGINE, type ThrowAwayDatabase } from '../databases';
import { type RunningFolio, seededDatabase, startFolio, startTwoFolios, waitFor } from '../harness';
import { seededRandom } from '../support';

const SEEDS = (process.env.COEDIT_FUZZ_SEEDS ?? '11,29,47')
  .split(',')
  .map(Number)
  .filter(Number.isFinite);
/** Operations per run, over all editors. */
const OPERATIONS = Number(process.env.COEDIT_FUZZ_OPS ?? 400);
const EDITORS = 4;
const say = process.env.COEDIT_FUZZ_VERBOSE
  ? (...args: unknown[]) => console.log(...args)
  : () => {};

let made: ThrowAwayDatabase;
let servers: RunningFolio[] = [];
let db: Database;
let cookie: string;

beforeAll(async () => {
  made = await seededDatabase();
  servers =
    TEST_ENGINE === 'postgres'
      ? await startTwoFolios(made)
      : [await startFolio({ database: made, keepDatabase: true })];
  db = await openDatabase(made.url, { migrate: false });
  const editor = await addEditor(db, 'fuzz@example.com', 'the fuzz passphrase');
  const session = await createSession(db.query, editor.id);
  cookie = `${SESSION_COOKIE}=${session.id}`;
}, 90_000);

afterAll(async () => {
  for (const server of servers) await server.stop();
  await db?.close();
  await made?.drop();
});

const liveUrl = (server: RunningFolio, slug: string) =>
  `${server.url.replace('http:', 'ws:')}/preview/${slug}?live`;

async function connect(client: CoeditClient, server: RunningFolio, slug: string) {
  await client.connect(liveUrl(server, slug), { cookie, origin: server.url });
}

describe(`co-editing converges (${TEST_ENGINE})`, () => {
  for (const seed of SEEDS) {
    test(
      `seed ${seed}: ${EDITORS} editors, ${OPERATIONS} operations, a restart`,
      async () => {
        try {
          await run(seed);
        } catch (error) {
          throw new Error(
            `co-editing fuzz failed with seed ${seed} (replay: COEDIT_FUZZ_SEEDS=${seed}): ${
              error instanceof Error ? error.message : String(error)
            }`,
          );
        }
      },
      Math.max(60_000, OPERATIONS * 100),
    );
  }
});

/** The page's document as the database holds it. */
async function storedDocument(pageId: number): Promise<Y.Doc> {
  const doc = new Y.Doc();
  await applyStored(db.query, pageId, doc, 0, null);
  return doc;
}

async function run(seed: number) {
  const random = seededRandom(seed);
  const pick = (n: number) => Math.floor(random() * n);
  const slug = `fuzz-${seed}`;
  const store = createContentStore(db);
  await store.putPage({ slug, title: `Fuzz ${seed}`, summary: '', body: 'Start.\n' });
  const pageId = (await store.getPage(slug, { draft: true }))?.id ?? 0;
  const clients = Array.from({ length: EDITORS }, (_, i) => new CoeditClient(`e${i}`));
  // Spread over the instances.
  for (const [i, client] of clients.entries())
    await connect(client, servers[i % servers.length] as RunningFolio, slug);

  let restarting: Promise<void> | null = null;
  const restartAt = Math.floor(OPERATIONS / 2);
  for (let step = 0; step < OPERATIONS; step += 1) {
    if (step === restartAt) {
      const victim = pick(servers.length);
      const old = servers[victim] as RunningFolio;
      const acknowledgedBefore = clients.flatMap((c) => [...c.acknowledged]);
      // SIGKILL: nothing flushed, nothing said; what it acknowledged must be stored already.
      // The server process itself (its pid from its `listening` line), as a crash would.
      process.kill(old.pid, 'SIGKILL');
      restarting = old.exited.then(async () => {
        // What it acknowledged is in the database, not only in the editors' memories (which
        // would give it back on reconnect and hide the loss).
        const lost = missingFrom(await storedDocument(pageId), acknowledgedBefore);
        await old.stop();
        servers[victim] = await startFolio({ database: made, keepDatabase: true });
        if (lost.length > 0)
          throw new Error(`acknowledged, then lost with the instance: ${lost.slice(0, 5)}`);
      });
      // Awaited after the operations; handled now so a failure is not "unhandled" meanwhile.
      restarting.catch(() => undefined);
    }
    const client = clients[pick(clients.length)] as CoeditClient;
    const roll = random();
    say(step, client.name, roll.toFixed(2), client.connected);
    if (!client.connected && roll < 0.3) {
      const server = servers[pick(servers.length)] as RunningFolio;
      // A server being restarted refuses: the editor keeps editing offline.
      await connect(client, server, slug).catch(() => undefined);
      continue;
    }
    const length = client.text.length;
    if (roll < 0.6) client.text.insert(pick(length + 1), `[${client.name}.${step}]`);
    else if (roll < 0.85 && length > 0) {
      const at = pick(length);
      client.text.delete(at, Math.min(1 + pick(4), length - at));
    } else if (roll < 0.92 && client.connected) client.disconnect();
    // Let messages cross now and then.
    if (random() < 0.2) await Bun.sleep(pick(15));
  }
  say('operations done');
  await restarting;
  say('restarted');

  // Everyone back on line, on whichever instance; each sends what it did offline.
  for (const [i, client] of clients.entries())
    if (!client.connected)
      await waitFor(
        () =>
          connect(client, servers[i % servers.length] as RunningFolio, slug).then(
            () => true,
            () => undefined,
          ),
        { timeoutMs: 30_000, what: `${client.name} to reconnect` },
      );
  await waitFor(
    () => {
      const texts = new Set(clients.map((c) => c.text.toString()));
      return texts.size === 1 && clients.every((c) => c.allAcknowledged) ? true : undefined;
    },
    {
      timeoutMs: 30_000,
      what: () =>
        `every editor's text to agree and be acknowledged: ${clients
          .map((c) => `${c.name} ${c.text.length} chars, all acked ${c.allAcknowledged}`)
          .join('; ')}`,
    },
  );
  say('converged');
  const text = (clients[0] as CoeditClient).text.toString();
  // The draft: written about a second after the last update.
  const draft = await waitFor(
    async () => {
      const page = await store.getPage(slug, { draft: true });
      return page?.bodyMarkdown === text ? page.bodyMarkdown : undefined;
    },
    {
      timeoutMs: 20_000,
      what: 'the stored draft to be the editors’ text',
    },
  );
  expect(draft).toBe(text);
  const acknowledged = clients.flatMap((c) => c.acknowledged);
  // Each editor had updates stored, and the check below has something to check.
  for (const client of clients) expect(client.acknowledged.length).toBeGreaterThan(0);
  for (const client of clients) expect(missingFrom(client.doc, acknowledged)).toEqual([]);
  expect(missingFrom(await storedDocument(pageId), acknowledged)).toEqual([]);
  for (const client of clients) client.disconnect();
  for (const server of servers) expect(server.unexpectedErrors()).toEqual([]);
}
