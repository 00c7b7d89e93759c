// `bun run bench --coedit [--keys 300] [--seconds 10] [--connections 1000] [--no-build]`
// (or `bun bench/coedit.ts …`): co-editing's figures (issue 30, docs/decisions/0050), on SQLite
// and on PostgreSQL (when one answers at FOLIO_TEST_POSTGRES_URL), against servers started as
// the README starts them, the editors simulated in this process (a Y.Doc each, y-protocols over
// real WebSockets, tests/coedit-client.ts):
// - keystroke → visible to another editor of the page, on the same instance and (PostgreSQL,
//   two instances on one database) across instances; keystroke → acknowledged (stored): p50
//   and p99 over `--keys` single-character updates, one at a time;
// - the updates a second one instance sustains: 8 editors on 2 pages typing flat out (8 keys
//   in flight each) for `--seconds`, and their acknowledgement p50/p99 meanwhile;
// - the server's memory (RSS) per open document and per idle connection: before and after
//   opening 50 documents (one connection each), then 1 000 connections over them (20 a page,
//   the page's limit), from 42 accounts (24 connections each at most, 4 a page: the per-person
//   caps), its CPU while they sit idle (each is asked about its session every second), and
//   keystroke → visible on another page meanwhile (what the idle crowd costs a typist).
// Prints a table and writes bench/coedit-results.md. Bounded: every wait has a deadline, and
// the whole run takes about two minutes; every server it starts is stopped and every
// database it makes dropped before it exits. Not part of `bun run check`.
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { COEDIT_LIMITS } from '../src/lib/coedit/documents';
import { createContentStore } from '../src/lib/content/content';
import { type Database, type Engine, openDatabase } from '../src/lib/data/db';
import { addEditor, createSession } from '../src/lib/editors/accounts';
import { LIVE_CONNECTION_BOUND } from '../src/lib/http/live-editing';
import { SESSION_COOKIE } from '../src/lib/http/routes';
import { CoeditClient } from '../tests/coedit-client';
import {
  postgresAnswers,
  seededThrowAwayDatabase,
  type ThrowAwayDatabase,
} from '../tests/databases';
import { type RunningFolio, startFolio, startTwoFolios } from '../tests/harness';

const { values } = parseArgs({
  options: {
    keys: { type: 'string', default: '300' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '1000' },
    'no-build': { type: 'boolean', default: false },
  },
});
const KEYS = Math.max(20, Math.min(2_000, Number(values.keys)));
const SECONDS = Math.max(2, Math.min(30, Number(values.seconds)));
const CONNECTIONS = Math.max(20, Math.min(1_000, Number(values.connections)));
/** The limits of decision 0050 the memory run fills up to and stays within. */
const PER_PAGE = COEDIT_LIMITS.connectionsPerPage;
const PER_PERSON_PAGE = 4;
const PER_PERSON = 24;
const DOCUMENTS = Math.ceil(CONNECTIONS / PER_PAGE);
/** Each memory page's body: a long article's worth of text. */
const BODY_CHARACTERS = 10_000;
/** Typists and keys in flight each, in the throughput run. */
const TYPISTS = 8;
const IN_FLIGHT = 8;
/** No single wait of the bench lasts longer. */
const WAIT_MS = 15_000;

if (!values['no-build']) {
  const build = Bun.spawnSync(['bun', 'run', 'build'], { stdout: 'ignore', stderr: 'inherit' });
  if (build.exitCode !== 0) process.exit(1);
}

const say = (text: string) => console.error(`bench --coedit: ${text}`);

function percentile(list: number[], p: number): number {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** The process's CPU time so far, in seconds (user + system, /proc/<pid>/stat). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function deadline<T>(promise: Promise<T>, what: string, ms = WAIT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`bench --coedit: ${what} took over ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

async function until(condition: () => boolean, what: string, ms = WAIT_MS): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`bench --coedit: ${what} took over ${ms} ms`);
    await Bun.sleep(5);
  }
}

/** Calls `onAck` after each acknowledgement (Folio's message 4) the client handles. */
function onAcknowledged(client: CoeditClient, onAck: () => void): void {
  const socket = client.socket as WebSocket;
  const previous = socket.onmessage;
  socket.onmessage = (event) => {
    previous?.call(socket, event);
    if (new Uint8Array(event.data as ArrayBuffer)[0] === 4) onAck();
  };
}

type Site = {
  engine: Engine;
  made: ThrowAwayDatabase;
  db: Database;
  servers: RunningFolio[];
  /** An account's session cookie, by name (made on first use). */
  cookie(name: string): Promise<string>;
};

async function openSite(engine: Engine): Promise<Site> {
  const made = await seededThrowAwayDatabase(engine);
  const servers =
    engine === 'postgres'
      ? await startTwoFolios(made)
      : [await startFolio({ database: made, keepDatabase: true })];
  const db = await openDatabase(made.url, { migrate: false });
  const cookies = new Map<string, string>();
  return {
    engine,
    made,
    db,
    servers,
    async cookie(name) {
      const known = cookies.get(name);
      if (known) return known;
      const editor = await addEditor(db, `${name}@bench.example`, 'the bench passphrase', {
        role: 'editor',
      });
      const cookie = `${SESSION_COOKIE}=${(await createSession(db.query, editor.id)).id}`;
      cookies.set(name, cookie);
      return cookie;
    },
  };
}

async function closeSite(site: Site): Promise<void> {
  for (const server of site.servers) await server.stop();
  await site.db.close();
  await site.made.drop();
}

async function newPage(site: Site, slug: string, body: string): Promise<void> {
  await createContentStore(site.db).putPage({
    slug,
    title: `Bench ${slug}`,
    summary: 'A page the co-editing bench edits.',
    body,
  });
}

async function join(
  server: RunningFolio,
  slug: string,
  cookie: string,
  name = slug,
): Promise<CoeditClient> {
  const client = new CoeditClient(name);
  await client.connect(`${server.url.replace('http:', 'ws:')}/preview/${slug}?live`, {
    cookie,
    origin: server.url,
  });
  // Its sync reply stored: nothing of the join is still on its way when the clock starts.
  await until(() => client.allAcknowledged, `${name}'s sync reply`);
  return client;
}

/**
 * `KEYS` single characters typed by `writer`, one at a time: for each, the time until `reader`
 * has it (relayed by the server) and until the writer's server acknowledged it (stored).
 */
async function keystrokes(writer: CoeditClient, reader: CoeditClient, count: number) {
  const visible: number[] = [];
  const acknowledged: number[] = [];
  let started = 0;
  let wanted = 0;
  let seen: (() => void) | null = null;
  let acked: (() => void) | null = null;
  const watch = (_update: Uint8Array, origin: unknown) => {
    if (origin === 'server' && reader.text.length >= wanted && seen) {
      const done = seen;
      seen = null;
      done();
    }
  };
  reader.doc.on('update', watch);
  onAcknowledged(writer, () => {
    if (writer.allAcknowledged && acked) {
      const done = acked;
      acked = null;
      done();
    }
  });
  try {
    for (let i = 0; i < count; i += 1) {
      wanted = writer.text.length + 1;
      const shown = new Promise<void>((resolve) => {
        seen = () => {
          visible.push(performance.now() - started);
          resolve();
        };
      });
      const stored = new Promise<void>((resolve) => {
        acked = () => {
          acknowledged.push(performance.now() - started);
          resolve();
        };
      });
      started = performance.now();
      // Somewhere in the text, as typing is: not always at its end.
      writer.text.insert(Math.floor(Math.random() * writer.text.length), 'abcdefgh'[i % 8] ?? 'x');
      await deadline(Promise.all([shown, stored]), `keystroke ${i}`);
    }
  } finally {
    reader.doc.off('update', watch);
  }
  return { visible, acknowledged };
}

/** `TYPISTS` editors on two pages typing flat out for `SECONDS`: acknowledged updates a second. */
async function throughput(site: Site) {
  const server = site.servers[0] as RunningFolio;
  const typists: CoeditClient[] = [];
  for (let page = 0; page < 2; page += 1) {
    await newPage(site, `flat-out-${page}`, 'Typed flat out.\n');
    const cookie = await site.cookie(`typist${page}`);
    for (let i = 0; i < TYPISTS / 2; i += 1)
      typists.push(await join(server, `flat-out-${page}`, cookie, `typist ${page}.${i}`));
  }
  let running = true;
  let count = 0;
  const latencies: number[] = [];
  const type = (client: CoeditClient, sent: number[]) => {
    sent.push(performance.now());
    client.text.insert(Math.floor(Math.random() * client.text.length), 'k');
  };
  for (const client of typists) {
    const sent: number[] = [];
    onAcknowledged(client, () => {
      const at = sent.shift();
      if (at !== undefined) latencies.push(performance.now() - at);
      if (!running) return;
      count += 1;
      type(client, sent);
    });
    for (let i = 0; i < IN_FLIGHT; i += 1) type(client, sent);
  }
  const started = performance.now();
  await Bun.sleep(SECONDS * 1_000);
  running = false;
  const elapsed = (performance.now() - started) / 1_000;
  const counted = count;
  await until(() => typists.every((client) => client.allAcknowledged), 'the last keys in flight');
  const texts = new Set(typists.slice(0, TYPISTS / 2).map((client) => client.text.toString()));
  for (const client of typists) client.disconnect();
  return {
    perSecond: counted / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    agreed: texts.size === 1,
  };
}

/**
 * RSS of the first server before and after opening DOCUMENTS documents (one connection each),
 * then after filling them to CONNECTIONS connections; its CPU while they sit idle.
 */
async function memory(site: Site) {
  const server = site.servers[0] as RunningFolio;
  const paragraph =
    'A paragraph of an article as people write them, long enough to wrap a few times on a screen and to be edited somewhere in its middle.\n\n';
  const body = paragraph
    .repeat(Math.ceil(BODY_CHARACTERS / paragraph.length))
    .slice(0, BODY_CHARACTERS);
  for (let page = 0; page < DOCUMENTS; page += 1) await newPage(site, `memory-${page}`, body);
  // The accounts: a page's 20 places in slots of 4 (one person's share of a page), each slot
  // dealt to the next person in turn, so nobody holds more than 24.
  const people = Math.ceil(CONNECTIONS / PER_PERSON);
  const cookies: string[] = [];
  for (let person = 0; person < people; person += 1)
    cookies.push(await site.cookie(`reader${person}`));
  const slotsPerPage = PER_PAGE / PER_PERSON_PAGE;
  const personOf = (index: number) => {
    const page = Math.floor(index / PER_PAGE);
    const slot = page * slotsPerPage + Math.floor((index % PER_PAGE) / PER_PERSON_PAGE);
    return slot % people;
  };
  // A page served once: the server is warm, and what follows is the documents' and sockets'.
  await fetch(`${server.url}/`).then((response) => response.text());
  await Bun.sleep(1_000);
  const before = rssMb(server.pid);
  const clients: CoeditClient[] = [];
  let refused = 0;
  const open = async (index: number) => {
    const page = Math.floor(index / PER_PAGE);
    const cookie = cookies[personOf(index)] as string;
    try {
      clients.push(await join(server, `memory-${page}`, cookie, `reader ${index}`));
    } catch {
      refused += 1;
    }
  };
  // One connection per page first: the documents.
  for (let page = 0; page < DOCUMENTS; page += 1) await open(page * PER_PAGE);
  await Bun.sleep(2_000);
  const documents = rssMb(server.pid);
  const rest: number[] = [];
  for (let index = 0; index < CONNECTIONS; index += 1) if (index % PER_PAGE !== 0) rest.push(index);
  // Twenty at a time: joining is a session lookup and a sync each.
  for (let i = 0; i < rest.length; i += 20) await Promise.all(rest.slice(i, i + 20).map(open));
  await Bun.sleep(2_000);
  const connected = rssMb(server.pid);
  const cpuBefore = cpuSeconds(server.pid);
  const idleFor = 5;
  await Bun.sleep(idleFor * 1_000);
  const cpu = (cpuSeconds(server.pid) - cpuBefore) / idleFor;
  // Another page's editors meanwhile: what the idle crowd costs someone typing.
  await newPage(site, 'beside-the-crowd', 'Typed beside a thousand idle connections.\n');
  const cookie = await site.cookie('beside');
  const writer = await join(server, 'beside-the-crowd', cookie, 'beside writer');
  const reader = await join(server, 'beside-the-crowd', cookie, 'beside reader');
  const beside = await keystrokes(writer, reader, 100);
  writer.disconnect();
  reader.disconnect();
  const still = clients.filter((client) => client.connected).length;
  const after = rssMb(server.pid);
  for (const client of clients) client.disconnect();
  return {
    before,
    documents,
    connected,
    after,
    perDocument: (documents - before) / DOCUMENTS,
    perConnection: (connected - documents) / (clients.length - DOCUMENTS),
    connections: clients.length,
    still,
    refused,
    people,
    cpu,
    beside,
  };
}

type EngineResult = {
  engine: Engine;
  same: { visible: number[]; acknowledged: number[] };
  across: { visible: number[]; acknowledged: number[] } | null;
  flat: Awaited<ReturnType<typeof throughput>>;
  memory: Awaited<ReturnType<typeof memory>>;
};

async function measure(engine: Engine): Promise<EngineResult> {
  say(`${engine}: starting ${engine === 'postgres' ? 'two instances' : 'the server'}`);
  const site = await openSite(engine);
  try {
    // Memory first, on a server that has done nothing else yet.
    say(`${engine}: ${DOCUMENTS} documents, then ${CONNECTIONS} idle connections`);
    const mem = await memory(site);
    const [first, second] = site.servers as [RunningFolio, RunningFolio | undefined];
    await newPage(site, 'keys', 'Typed one key at a time.\n');
    const cookie = await site.cookie('typist');
    const writer = await join(first, 'keys', cookie, 'writer');
    const reader = await join(first, 'keys', cookie, 'reader');
    say(`${engine}: ${KEYS} keystrokes, one instance`);
    await keystrokes(writer, reader, 20);
    const same = await keystrokes(writer, reader, KEYS);
    let across: EngineResult['across'] = null;
    if (second) {
      const far = await join(second, 'keys', cookie, 'far reader');
      say(`${engine}: ${KEYS} keystrokes, across instances`);
      await keystrokes(writer, far, 20);
      across = await keystrokes(writer, far, KEYS);
      far.disconnect();
    }
    writer.disconnect();
    reader.disconnect();
    say(`${engine}: ${TYPISTS} editors typing flat out for ${SECONDS} s`);
    const flat = await throughput(site);
    return { engine, same, across, flat, memory: mem };
  } finally {
    await closeSite(site);
  }
}

const results: EngineResult[] = [await measure('sqlite')];
if (await postgresAnswers()) results.push(await measure('postgres'));
else say('no PostgreSQL at FOLIO_TEST_POSTGRES_URL: SQLite only');

/**
 * What a page's connections may hold on one instance by the limits (decision 0050, the memory
 * bound): each its waiting messages and its unsent bytes, and one awareness state each.
 */
const BOUND_KB =
  (PER_PAGE *
    (LIVE_CONNECTION_BOUND.waitingBytes +
      LIVE_CONNECTION_BOUND.unsentBytes +
      COEDIT_LIMITS.awarenessBytes)) /
  1024;
const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
const pair = (list: number[] | undefined) =>
  list ? `${ms(percentile(list, 50))} / ${ms(percentile(list, 99))}` : 'n/a (one process)';
const names = results.map((r) => (r.engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'));
const row = (label: string, cell: (r: EngineResult) => string) =>
  `| ${label} | ${results.map(cell).join(' | ')} |`;
const lines = [
  `| figure | ${names.join(' | ')} |`,
  `|---|${results.map(() => '---:').join('|')}|`,
  row(`keystroke → visible, same instance, p50 / p99 ms (${KEYS} keys)`, (r) =>
    pair(r.same.visible),
  ),
  row('keystroke → visible, across instances, p50 / p99 ms', (r) => pair(r.across?.visible)),
  row('keystroke → acknowledged (stored), p50 / p99 ms', (r) => pair(r.same.acknowledged)),
  row('keystroke → acknowledged, writer while read across, p50 / p99 ms', (r) =>
    pair(r.across?.acknowledged),
  ),
  row(
    `updates/s one instance sustains (${TYPISTS} editors, 2 pages, ${IN_FLIGHT} in flight each, ${SECONDS} s)`,
    (r) => `${r.flat.perSecond.toFixed(0)}${r.flat.agreed ? '' : ' (texts disagreed!)'}`,
  ),
  row('acknowledged meanwhile, p50 / p99 ms', (r) => `${ms(r.flat.p50)} / ${ms(r.flat.p99)}`),
  row('server RSS, started and warm, MB', (r) => r.memory.before.toFixed(1)),
  row(
    `per open document (${DOCUMENTS}, ${BODY_CHARACTERS.toLocaleString('en')}-character bodies, one connection each), KB`,
    (r) => (r.memory.perDocument * 1024).toFixed(0),
  ),
  row('per idle connection (the rest, up to the total below), KB', (r) =>
    (r.memory.perConnection * 1024).toFixed(1),
  ),
  row(
    'idle connections held (accounts; refused; still open after 5 s idle)',
    (r) => `${r.memory.connections} (${r.memory.people}; ${r.memory.refused}; ${r.memory.still})`,
  ),
  row(
    `a page with its ${PER_PAGE} idle connections, measured KB (bound besides its text’s Y.Doc: ${Math.round(BOUND_KB).toLocaleString('en')} KB)`,
    (r) => ((r.memory.perDocument + (PER_PAGE - 1) * r.memory.perConnection) * 1024).toFixed(0),
  ),
  row('server RSS with them all, MB', (r) => r.memory.connected.toFixed(1)),
  row('server CPU while they sit idle (1.0 = one core)', (r) => r.memory.cpu.toFixed(2)),
  row('meanwhile, keystroke → visible on another page, p50 / p99 ms (100 keys)', (r) =>
    pair(r.memory.beside.visible),
  ),
];
const table = lines.join('\n');
console.log(table);
const command = `bun run bench --coedit${Bun.argv
  .slice(2)
  .filter((arg) => arg !== '--coedit')
  .map((arg) => ` ${arg}`)
  .join('')}`;
const machine = `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), load average ${loadavg()
  .map((n) => n.toFixed(1))
  .join(' / ')} at the end`;
const written = path.join(import.meta.dir, 'coedit-results.md');
writeFileSync(
  written,
  `# ${command}\n\nMeasured ${new Date().toISOString().slice(0, 16)}Z, Bun ${Bun.version}, ${machine}. Editors simulated in the bench's own process (tests/coedit-client.ts) over loopback WebSockets; servers started as the README starts them (PostgreSQL: two instances on one database). Keystrokes one at a time, each waited for before the next.\n\n${table}\n`,
);
// Aligned as the linter keeps every Markdown file here.
Bun.spawnSync(['bunx', 'biome', 'format', '--write', written], { stdout: 'ignore' });
