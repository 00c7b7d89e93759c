// Owns the content version: a number that changes whenever what visitors see changes (a
// publish, unpublish, rename, delete), stored in the database and mirrored in memory so the
// render cache's hit path never touches the database (docs/decisions/0014).
//  - PostgreSQL: the write NOTIFYs every instance in its own transaction (delivered at commit);
//    each instance LISTENs and, after every (re)connect, reads the stored version again. After
//    an outage an instance is not healthy (healthz 503 "catching up") until its listener is
//    proved to hear again, so a load balancer keeps visitors off a cache that could lag.
//  - A SQLite file: every process on the file shares a memory-mapped 8-byte sidecar
//    (`<file>.version`); a writer stores the new version there after its commit, so the next
//    request of any process sees it — the CLI's writes included. A periodic check repairs the
//    sidecar if a writer died between its commit and that store.
//  - In-memory SQLite: one process, a variable.
// Each version also says what it changed (content-changes.ts, docs/decisions/0028): the NOTIFY
// payload carries it, and on a SQLite file a ring of slots beside the sidecar
// (`<file>.changes`) does; the render cache keeps a page that no later version changed.
import 'server-only';
import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import { log } from '../observability/log';
import { processSingleton } from '../runtime/process-singleton';
import {
  type ChangeLog,
  type ContentChange,
  createChangeLog,
  decodeChange,
  EVERYTHING,
  encodeChange,
} from './content-changes';
import type { Database, Query } from './db';

export const CONTENT_CHANNEL = 'folio_content';
const SIDECAR_CHECK_MS = 2_000;

export type ContentVersion = {
  /** The version now, from memory. Throws until `follow` has read the stored one. */
  current(): number;
  /**
   * Whether a page made at `version` for `slug` is still what visitors should see: no version
   * since changed that page, or everything, or is unknown here (content-changes.ts).
   */
  stillCurrent(version: number, slug: string): boolean;
  /** The version the listings (feed, sitemap) last changed at; only moves forward. */
  listingsVersion(): number;
  /**
   * Inside a write transaction that changed what visitors see: bumps the stored version (on
   * PostgreSQL, notifies every instance at commit, saying what changed). Call `committed`
   * with the result and the same change after the transaction commits. Without a change:
   * everything.
   */
  bump(q: Query, change?: ContentChange): Promise<number>;
  /**
   * After the commit: this process, and every process sharing a SQLite file, sees it now. On
   * PostgreSQL the promise resolves once this instance's own listener has heard the NOTIFY
   * (at most a second): the server sends it to every listener at once, so by then the other
   * instances have it too, and a response that says "published" is not ahead of them.
   */
  committed(version: number, change?: ContentChange): void | Promise<void>;
  /** Reads the stored version and keeps in step with other processes until `stop`. */
  follow(): Promise<void>;
  /**
   * Whether it keeps in step with other processes right now. On PostgreSQL, false from an
   * outage (`suspect`) until this instance's listener is proved to hear notifications again:
   * until then a publish elsewhere would not reach its render cache, so it is not healthy.
   */
  inStep(): Promise<boolean>;
  /** The database was out of reach: the listener may have lost its connection. */
  suspect(): void;
  stop(): Promise<void>;
};

async function storedVersion(q: Query): Promise<number> {
  const [row] = await q<{
    value: string;
  }>`SELECT value FROM settings WHERE key = 'content_version'`;
  return Number(row?.value ?? 0);
}

async function bumpStored(q: Query): Promise<number> {
  const [row] = await q<{ value: string }>`
    UPDATE settings SET value = CAST(CAST(value AS BIGINT) + 1 AS TEXT)
    WHERE key = 'content_version' RETURNING value`;
  if (!row) throw new Error('settings has no content_version (run the migrations)');
  return Number(row.value);
}

/** A shared, memory-mapped 8-byte number beside a SQLite file. */
function openSidecar(file: string, initial: number) {
  const sidecar = `${file}.version`;
  let size = -1;
  try {
    size = statSync(sidecar).size;
  } catch {
    // Not there yet.
  }
  if (size < 8) {
    // Written in place, never truncated: truncating a file another process has mapped would
    // crash that process.
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setFloat64(0, initial);
    const fd = openSync(sidecar, size < 0 ? 'a+' : 'r+');
    try {
      writeSync(fd, bytes, 0, 8, 0);
    } finally {
      closeSync(fd);
    }
  }
  // MAP_SHARED: a store by one process is what every other process reads next.
  const map = Bun.mmap(sidecar, { shared: true, size: 8 });
  const view = new DataView(map.buffer, map.byteOffset, 8);
  return {
    read: () => view.getFloat64(0),
    write: (value: number) => view.setFloat64(0, value),
  };
}

/** Slots in the ring of changes beside a SQLite file: a process further behind than this
 * (it would have to be stalled for 64 writes between two requests) takes it as everything. */
const RING_SLOTS = 64;
/** A version (8 bytes), a length (4) and the encoded change (MAX_PAGES_PER_CHANGE slugs fit). */
const SLOT_BYTES = 4096;

/**
 * What each recent version changed, shared by every process on a SQLite file: slot
 * `version % RING_SLOTS` holds it. The writer fills it inside its transaction, holding the
 * write lock (so no other writer can be between its version and its slot, and a slot left by
 * a rolled-back write is overwritten by the next writer of that version before any process
 * reads it): it marks the slot as being written, fills it, then stores its version. A reader
 * that does not find the version it looks for, the same before and after reading, takes the
 * change as unknown (everything).
 */
function openChangeRing(file: string) {
  const path = `${file}.changes`;
  const size = RING_SLOTS * SLOT_BYTES;
  let have = -1;
  try {
    have = statSync(path).size;
  } catch {
    // Not there yet.
  }
  if (have < size) {
    // Grown, never truncated (another process may have it mapped).
    const from = Math.max(have, 0);
    const fd = openSync(path, have < 0 ? 'a+' : 'r+');
    try {
      writeSync(fd, new Uint8Array(size - from), 0, size - from, from);
    } finally {
      closeSync(fd);
    }
  }
  const map = Bun.mmap(path, { shared: true, size });
  const view = new DataView(map.buffer, map.byteOffset, size);
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  return {
    write(version: number, change: ContentChange) {
      const base = (version % RING_SLOTS) * SLOT_BYTES;
      const bytes = encoder.encode(encodeChange(version, change));
      view.setFloat64(base, -1);
      if (bytes.length > SLOT_BYTES - 12) return;
      map.set(bytes, base + 12);
      view.setUint32(base + 8, bytes.length);
      view.setFloat64(base, version);
    },
    read(version: number): ContentChange {
      const base = (version % RING_SLOTS) * SLOT_BYTES;
      if (view.getFloat64(base) !== version) return EVERYTHING;
      const length = Math.min(view.getUint32(base + 8), SLOT_BYTES - 12);
      const payload = decoder.decode(map.subarray(base + 12, base + 12 + length));
      if (view.getFloat64(base) !== version) return EVERYTHING;
      const decoded = decodeChange(payload);
      return decoded.version === version ? decoded.change : EVERYTHING;
    },
  };
}

/** The parts every tracker shares: the log of what changed, and reading it. */
function changesOf(log: ChangeLog, started: () => boolean) {
  return {
    stillCurrent(version: number, slug: string) {
      return started() && log.stillCurrent(version, slug);
    },
    listingsVersion() {
      if (!started()) throw new Error('content version not read yet');
      return log.listingsVersion;
    },
  };
}

function memoryVersion(db: Database): ContentVersion {
  let started = false;
  const changes = createChangeLog();
  return {
    current() {
      if (!started) throw new Error('content version not read yet');
      return changes.latest;
    },
    ...changesOf(changes, () => started),
    bump: bumpStored,
    committed(version, change = EVERYTHING) {
      changes.committed(version, change);
      started = true;
    },
    async follow() {
      changes.resync(await storedVersion(db.query));
      started = true;
    },
    inStep: async () => true,
    suspect() {},
    async stop() {},
  };
}

function sqliteFileVersion(db: Database, file: string): ContentVersion {
  let sidecar: ReturnType<typeof openSidecar> | null = null;
  let ring: ReturnType<typeof openChangeRing> | null = null;
  let timer: ReturnType<typeof setInterval> | undefined;
  const changes = createChangeLog();
  const sidecarWith = (value: number) => {
    sidecar ??= openSidecar(file, value);
    return sidecar;
  };
  const ringOf = () => {
    ring ??= openChangeRing(file);
    return ring;
  };
  /** Reads what the versions this process has not seen yet changed, in order. */
  const catchUp = (shared: number) => {
    if (shared <= changes.contiguous) return;
    if (shared - changes.contiguous > RING_SLOTS) return changes.resync(shared);
    const slots = ringOf();
    for (let version = changes.contiguous + 1; version <= shared; version++)
      changes.heard(version, slots.read(version));
  };
  return {
    current() {
      if (!sidecar) throw new Error('content version not read yet');
      catchUp(sidecar.read());
      return changes.latest;
    },
    stillCurrent(version, slug) {
      if (!sidecar) return false;
      catchUp(sidecar.read());
      return changes.stillCurrent(version, slug);
    },
    listingsVersion() {
      if (!sidecar) throw new Error('content version not read yet');
      catchUp(sidecar.read());
      return changes.listingsVersion;
    },
    async bump(q, change = EVERYTHING) {
      const version = await bumpStored(q);
      // Before the commit: a process that sees the new version finds what it changed.
      ringOf().write(version, change);
      return version;
    },
    committed(version, change = EVERYTHING) {
      const shared = sidecarWith(version);
      // Two writers may store out of order; the version only moves forward.
      if (shared.read() < version) shared.write(version);
      changes.committed(version, change);
    },
    async follow() {
      // The database is the truth at start: a restored file may hold a lower version.
      const stored = await storedVersion(db.query);
      sidecarWith(stored).write(stored);
      changes.resync(stored);
      timer = setInterval(() => {
        storedVersion(db.query)
          .then((value) => {
            const shared = sidecarWith(value);
            if (shared.read() < value) {
              log.warn('content version repaired from the database', { version: value });
              shared.write(value);
            }
          })
          .catch(() => undefined);
      }, SIDECAR_CHECK_MS);
      timer.unref();
    },
    // Every process reads the same file: nothing to fall out of step with.
    inStep: async () => true,
    suspect() {},
    async stop() {
      clearInterval(timer);
    },
  };
}

const LISTEN_FAILED = /^bun:sql LISTEN (.+) failed, retrying: ([\s\S]*)$/;
const listenWarnings = processSingleton('listen-warnings', () => ({
  installed: false,
  said: false,
}));

/**
 * Bun's SQL client says that a LISTEN failed (its connection dropped; it retries by itself)
 * only with console.warn: a raw line on stderr, once per retry. In the server (whose log is
 * structured; serve.ts calls this once) that line becomes one warning per outage, said again
 * only after the listener has been heard again (onlisten). Other warnings pass through.
 */
export function structureListenWarnings(): void {
  if (listenWarnings.installed) return;
  listenWarnings.installed = true;
  const warn = console.warn.bind(console);
  console.warn = (...args: unknown[]) => {
    const failed = typeof args[0] === 'string' ? LISTEN_FAILED.exec(args[0]) : null;
    if (!failed) return warn(...args);
    if (listenWarnings.said) return;
    listenWarnings.said = true;
    log.warn('database listener lost; Bun reconnects it', {
      channel: failed[1],
      reason: failed[2],
    });
  };
}

function postgresVersion(db: Database): ContentVersion {
  const changes = createChangeLog();
  let started = false;
  /** The highest version this instance's listener has heard. */
  let heard = 0;
  /** Probes waiting for the next notification, whatever its version. */
  const probes = new Set<() => void>();
  /** False from an outage until the listener is proved to hear again. */
  let listening = false;
  let subscription: { unlisten(): Promise<void> } | null = null;
  const waiting = new Set<{ version: number; done: () => void }>();
  const hear = (version: number) => {
    if (!Number.isFinite(version)) return;
    for (const heardOne of probes) heardOne();
    heard = Math.max(heard, version);
    for (const waiter of waiting) if (waiter.version <= heard) waiter.done();
  };
  /** A notification: what its version changed, in commit order (a probe says only a version). */
  const hearPayload = (payload: string) => {
    const { version, change } = decodeChange(payload);
    changes.heard(version, change);
    hear(version);
  };
  const reread = () => {
    storedVersion(db.query)
      .then((version) => {
        // After a reconnect: whatever was published while the listener was away was not
        // heard, so it counts as everything (content-changes.ts resync).
        changes.resync(version);
        hear(version);
        listening = true;
        listenWarnings.said = false;
      })
      .catch((error) => log.warn('could not read the content version', { error }));
  };
  // onlisten runs after every reconnect too: whatever was published meanwhile is read then.
  const subscribe = () => db.client.listen(CONTENT_CHANNEL, hearPayload, reread);
  let resubscribing: Promise<void> | null = null;
  const resubscribe = async () => {
    const old = subscription;
    // The old subscription's connection may be dead: unlisten is given a second, no more.
    await Promise.race([old?.unlisten().catch(() => undefined), Bun.sleep(1_000)]);
    subscription = await subscribe();
  };
  /** Sends a notification to ourselves and waits (≤ 1 s) to hear it: proof the listener works. */
  const probe = async (): Promise<boolean> => {
    let heardOne: () => void = () => undefined;
    const next = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 1_000);
      heardOne = () => {
        clearTimeout(timer);
        resolve(true);
      };
      probes.add(heardOne);
    });
    try {
      const stored = await storedVersion(db.query);
      await db.query`SELECT pg_notify(${CONTENT_CHANNEL}, ${String(stored)})`;
      return await next;
    } finally {
      probes.delete(heardOne);
    }
  };
  return {
    current() {
      if (!started) throw new Error('content version not read yet');
      return changes.latest;
    },
    ...changesOf(changes, () => started),
    async bump(q, change = EVERYTHING) {
      const version = await bumpStored(q);
      await q`SELECT pg_notify(${CONTENT_CHANNEL}, ${encodeChange(version, change)})`;
      return version;
    },
    committed(version, change = EVERYTHING) {
      changes.committed(version, change);
      started = true;
      if (!subscription || heard >= version) return;
      return new Promise<void>((resolve) => {
        const waiter = {
          version,
          done: () => {
            clearTimeout(timer);
            waiting.delete(waiter);
            resolve();
          },
        };
        const timer = setTimeout(waiter.done, 1_000);
        waiting.add(waiter);
      });
    },
    async follow() {
      changes.resync(await storedVersion(db.query));
      started = true;
      subscription = await subscribe();
      listening = true;
    },
    async inStep() {
      if (listening) return true;
      if (!subscription) return false;
      try {
        listening = await probe();
        if (!listening) {
          // Bun reconnects a dropped listener by itself, but only seconds later: subscribe
          // afresh now that the database answers, rather than keep visitors waiting for it.
          resubscribing ??= resubscribe().finally(() => {
            resubscribing = null;
          });
          await resubscribing;
          listening = await probe();
        }
      } catch {
        return false;
      }
      return listening;
    },
    suspect() {
      listening = false;
    },
    async stop() {
      await subscription?.unlisten().catch(() => undefined);
      subscription = null;
      for (const waiter of waiting) waiter.done();
    },
  };
}

const trackers = new WeakMap<Database, ContentVersion>();

/** The content version of `db` (one per database handle). */
export function contentVersionOf(db: Database): ContentVersion {
  let tracker = trackers.get(db);
  if (!tracker) {
    tracker =
      db.engine === 'postgres'
        ? postgresVersion(db)
        : db.file === null || db.file === ':memory:'
          ? memoryVersion(db)
          : sqliteFileVersion(db, db.file);
    trackers.set(db, tracker);
  }
  return tracker;
}

/** Where the render cache reads the version: the server's database, once it follows it. */
const followed = processSingleton('followed-content-version', () => ({
  tracker: null as ContentVersion | null,
}));

/** Starts following `db`'s content version for this process's render cache. */
export async function followContentVersion(db: Database): Promise<ContentVersion> {
  const tracker = contentVersionOf(db);
  await tracker.follow();
  followed.tracker = tracker;
  return tracker;
}

/**
 * Whether this process's render cache keeps in step with the database (healthz asks): true
 * when no version is followed (nothing to be out of step with).
 */
export async function contentVersionInStep(): Promise<boolean> {
  return followed.tracker ? followed.tracker.inStep() : true;
}

/** The database was out of reach: the followed version's listener may have dropped. */
export function suspectContentVersion(): void {
  followed.tracker?.suspect();
}

/** The version the render cache keys by; throws when none is followed (the cache steps aside). */
export function currentContentVersion(): number {
  if (!followed.tracker) throw new Error('no content version followed');
  return followed.tracker.current();
}

/**
 * Whether what this process made at `version` for the page `slug` (its HTML, its page data)
 * is still current: false when no version is followed.
 */
export function contentStillCurrent(version: number, slug: string): boolean {
  return followed.tracker?.stillCurrent(version, slug) ?? false;
}

/**
 * What a cache of a listing (the feed, the sitemap: anything that lists published pages) keys
 * by: it changes with every publish, unpublish, rename and settings change, here and on every
 * other instance, by their next request. Store it with what was built *before* building, and
 * serve what is stored only while it is still the same number. Throws when none is followed
 * (then do not cache).
 */
export function listingsVersion(): number {
  if (!followed.tracker) throw new Error('no content version followed');
  return followed.tracker.listingsVersion();
}
