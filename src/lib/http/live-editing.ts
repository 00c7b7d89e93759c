// Owns the co-editing WebSocket at `/preview/<slug>?live` (docs/decisions/0050): who may open
// it, checked before the upgrade with a plain HTTP refusal (a foreign or missing Origin 403, no
// session 401, no such page 404, a page the person may not edit 403, a full page 503), and the glue
// between Bun's WebSocket handlers and the co-editing registry (src/lib/coedit), which owns
// the documents. Binary frames only; a text frame closes its connection (1003).
import 'server-only';
import type { ServerWebSocket, WebSocketHandler } from 'bun';
import { parse } from 'hono/utils/cookie';
import { type AwarenessPerson, awarenessPersonOf } from '../coedit/awareness-identity';
import { CLOSE, type CoeditRegistry, MESSAGE_SYNC, type Member } from '../coedit/documents';
import type { ContentStore } from '../content/content';
import type { Database } from '../data/db';
import { isDatabaseBusy, isDatabaseUnavailable } from '../data/db-errors';
import { type Editor, getSession } from '../editors/accounts';
import { can } from '../editors/permissions';
import { reportUnexpectedError } from '../observability/errors';
import { log } from '../observability/log';
import { allowedOrigins, isCrossSite } from './middleware/same-origin';
import { SESSION_COOKIE } from './routes';

/** The query parameter that asks a page's preview address for its live document. */
export const LIVE_PARAM = 'live';
/** Seconds a connection may stay silent (Bun pings it meanwhile; a live client answers). */
export const LIVE_IDLE_SECONDS = 120;
/** Frames Bun reads at all; the registry closes anything over its own limit (256 KiB) with 1009. */
const MAX_FRAME_BYTES = 1024 * 1024;
/**
 * What one connection may hold in this process (docs/decisions/0050, the memory bound):
 * messages waiting to be handled (while its document loads, while its session is asked again,
 * while the one before is stored) — at most 64, and at most 1 MiB in all (64 frames of 1 MiB
 * would be 64 MiB); a client that sends more meanwhile is closed (1013, try again) — and bytes
 * queued to it that it has not read yet, at most 4 MiB: past that Bun would drop messages
 * (a client missing one relayed update would silently fall out of step), so the connection
 * is closed instead and the client reconnects and syncs afresh.
 */
export const LIVE_CONNECTION_BOUND = {
  waitingMessages: 64,
  waitingBytes: 1024 * 1024,
  unsentBytes: 4 * 1024 * 1024,
} as const;
/**
 * How long a connection's session and permission are taken as still good: a message after that
 * asks again first, and every connection is asked as often, so a session signed out or ended by
 * an Administrator, or a person suspended or given a lesser role, stops receiving the page
 * within about this and a query. An update (a write) is never taken on trust: it is asked again
 * before it is stored, every time (hostile pass, 2026-11-27: 5 s let an ended session write).
 */
export const LIVE_RECHECK_MS = 1_000;
/**
 * A connection that has not sent its sync step 1 by then is closed (1008): it holds a place on
 * the page without editing (hostile pass, 2026-11-27: silent sockets kept the Owner out).
 */
export const LIVE_HANDSHAKE_MS = 10_000;
/**
 * Connections one person may hold on one page (a few tabs) and on this instance overall; one
 * more is refused with 429 before the upgrade, so no one person fills a page or many pages.
 */
export const LIVE_PER_PERSON = { page: 4, instance: 24 } as const;
/**
 * Tries let in only to be closed at once (ClosedTry) that one address may make per window; one
 * more is refused with 429 before the upgrade. A paused tab tries once every half minute, or
 * when shown; a flood of made-up cookies would otherwise cost an upgrade each (hostile pass,
 * 2026-11-27: 2 000 took 13 MB). At most `addresses` are counted at once: past that, every
 * such try waits for the window to turn (a flood from many addresses).
 */
// 120 a minute: many people behind one address (an office's NAT, the test suite's browsers on
// 127.0.0.1) each have paused tabs trying twice a minute; at 30 the suite's own tries were
// refused (a 429 the tab reads as a failed try) and a renamed page's tab was never told.
export const CLOSED_TRIES = { perAddress: 120, windowMs: 60_000, addresses: 10_000 } as const;

export type LiveData = {
  pageId: number;
  editor: Editor;
  /** Who the others see at this connection's caret. */
  person: AwarenessPerson;
  /** The session cookie's value it was opened with. */
  sessionId: string;
  checkedAt: number;
  /** Messages pass through here in order while the session is asked again. */
  chain: Promise<void>;
  /** Closes the connection if its sync step 1 has not come by LIVE_HANDSHAKE_MS. */
  handshakeTimer: ReturnType<typeof setTimeout> | null;
  /** Its place in the per-person count, given back once (at close, or a failed upgrade). */
  release: () => void;
  member: Member | null;
  waiting: Uint8Array[];
  /** The bytes of `waiting`. */
  waitingBytes: number;
  closed: boolean;
};

/** What the front door hands over: the server, to upgrade the request with. */
export type Upgrader = {
  upgrade?: (request: Request, options: { data: SocketData }) => boolean;
};

/** Whether a message would change the document: a sync step 2 or an update. */
function isWrite(message: Uint8Array | undefined): boolean {
  return message?.[0] === MESSAGE_SYNC && (message[1] === 1 || message[1] === 2);
}

function plain(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(`${text}\n`, {
    status,
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
      ...headers,
    },
  });
}

/**
 * A tab's try that is let in only to be closed at once with a code the tab reads (live-document.ts):
 * 4401 for a cookie that names no session any more (signed out, ended by an Administrator), on
 * which the tab stays paused; 4403 for a person who may not edit the page, 4404 for a page no
 * longer at its address (the reason: its new slug), on which it stops and says why. Refused
 * before the upgrade instead, the browser would log a failed handshake in its console at every
 * try (every half minute while the tab waits), and the tab could not tell one refusal from
 * another. It joins no document and reads nothing. Without a session at all it is still a 401.
 */
export type ClosedTry = { refusal: Refusal };

/** What a socket of the front door carries. */
export type SocketData = LiveData | ClosedTry;

const SIGNED_OUT: Refusal = {
  code: CLOSE.signedOut,
  reason: 'signed out, or no longer allowed to edit this page',
};

/** Why a connection's person may not edit its page: its close code and reason. */
type Refusal = { code: number; reason: string };

/**
 * The one rule for a try and for a connection asked again (the sweep): null while `editor`
 * (null: the session ended) may edit the page (null: deleted; `movedTo`, its new slug if it was
 * renamed, which the tab then points to).
 */
function refusalOf(
  editor: Editor | null,
  ownership: Parameters<typeof can>[2] | null,
  movedTo: string | null = null,
): Refusal | null {
  if (editor === null) return SIGNED_OUT;
  if (ownership === null) return { code: CLOSE.gone, reason: movedTo ?? '' };
  return can(editor, 'page.edit', ownership)
    ? null
    : { code: CLOSE.forbidden, reason: 'you may not edit this page' };
}

/** What a refused try is answered when it cannot be let in to be closed (no upgrade). */
function refusedPlainly(refusal: Refusal): Response {
  if (refusal.code === CLOSE.signedOut) return plain(401, 'Sign in to edit this page.');
  if (refusal.code === CLOSE.gone) return plain(404, 'There is no page at this address.');
  return plain(403, 'You cannot edit this page.');
}

function isLive(ws: ServerWebSocket<SocketData>): ws is ServerWebSocket<LiveData> {
  return !('refusal' in ws.data);
}

export function createLiveEditing({
  registry,
  database,
  store,
  siteUrl,
}: {
  registry: CoeditRegistry;
  database: () => Promise<Database>;
  store: () => ContentStore;
  siteUrl: string | undefined;
}) {
  /** Tries closed at once per address in the current window (CLOSED_TRIES). */
  let tries = new Map<string, number>();
  let triesSince = Date.now();
  function mayTry(address: string): boolean {
    if (Date.now() - triesSince >= CLOSED_TRIES.windowMs) {
      tries = new Map();
      triesSince = Date.now();
    }
    const count = tries.get(address) ?? 0;
    if (count >= CLOSED_TRIES.perAddress) return false;
    if (count === 0 && tries.size >= CLOSED_TRIES.addresses) return false;
    tries.set(address, count + 1);
    return true;
  }

  /** Each person's connections here: page id → count (the size of the map is not the total). */
  const held = new Map<number, Map<number, number>>();

  /** Takes a place for `editorId` on `pageId`, or says which limit it would pass. */
  function take(editorId: number, pageId: number): (() => void) | 'page' | 'instance' {
    const pages = held.get(editorId) ?? new Map<number, number>();
    let total = 0;
    for (const count of pages.values()) total += count;
    if ((pages.get(pageId) ?? 0) >= LIVE_PER_PERSON.page) return 'page';
    if (total >= LIVE_PER_PERSON.instance) return 'instance';
    pages.set(pageId, (pages.get(pageId) ?? 0) + 1);
    held.set(editorId, pages);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const count = (pages.get(pageId) ?? 1) - 1;
      if (count > 0) pages.set(pageId, count);
      else pages.delete(pageId);
      if (pages.size === 0 && held.get(editorId) === pages) held.delete(editorId);
    };
  }

  /**
   * Answers a WebSocket request for page `slug`'s live document: undefined once upgraded, or
   * the refusal. `https` as the front door read it.
   */
  async function upgrade(
    request: Request,
    slug: string,
    https: boolean,
    server: Upgrader | undefined,
    clientAddress: string,
  ): Promise<Response | undefined> {
    const url = new URL(request.url);
    // The rule actions follow (same-origin.ts): a page of another site may not open it with
    // this browser's cookie. Stricter than actions in one way: a browser always sends Origin on
    // a WebSocket, and only the editor's own page opens this one, so none at all is refused too
    // (hostile pass, 2026-11-27).
    if (
      !request.headers.get('origin') ||
      isCrossSite(request, allowedOrigins({ host: url.host, https }, siteUrl))
    )
      return plain(403, 'Forbidden: this connection must come from this site.');
    try {
      const header = request.headers.get('cookie');
      const id = header ? parse(header, SESSION_COOKIE)[SESSION_COOKIE] : undefined;
      const session = await getSession(await database(), id);
      /** Let in to be closed at once (undefined: upgraded), or the refusal said plainly. */
      const closeAtOnce = (refusal: Refusal) => {
        if (!mayTry(clientAddress))
          return plain(429, 'Too many tries from this address; wait a minute.', {
            'retry-after': String(CLOSED_TRIES.windowMs / 1000),
          });
        const data: ClosedTry = { refusal };
        if (server?.upgrade?.(request, { data })) return undefined;
        return refusedPlainly(refusal);
      };
      // No cookie at all is not a paused tab's try: a plain 401, nothing let in.
      if (!session) return id ? closeAtOnce(SIGNED_OUT) : refusedPlainly(SIGNED_OUT);
      const page = await store().getPage(slug, { draft: true });
      const ownership = page ? await store().pageOwnership(page.id) : null;
      const movedTo = page ? null : await store().findRedirect(slug, { draft: true });
      const refusal = refusalOf(session.editor, ownership, movedTo);
      // (No page is always a refusal: refusalOf's "gone".)
      if (refusal || !page) return closeAtOnce(refusal ?? { code: CLOSE.gone, reason: '' });
      if (registry.mayJoin(page.id) === 'full')
        return plain(503, 'Too many people are editing this page; try again later.', {
          'retry-after': '30',
        });
      const place = take(session.editor.id, page.id);
      if (place === 'page')
        return plain(429, 'You have this page open in too many tabs; close one and try again.', {
          'retry-after': '10',
        });
      if (place === 'instance')
        return plain(429, 'You have too many pages open live; close some and try again.', {
          'retry-after': '10',
        });
      // The name the others see at this person's caret, as the editor screen gives it to the
      // browser: the server stamps it on every awareness state (awareness-identity.ts).
      const profile = await store().authorOfEditor(session.editor.id);
      const data: LiveData = {
        pageId: page.id,
        editor: session.editor,
        person: awarenessPersonOf(session.editor.email, profile?.name ?? null),
        sessionId: id ?? '',
        checkedAt: Date.now(),
        chain: Promise.resolve(),
        handshakeTimer: null,
        release: place,
        member: null,
        waiting: [],
        waitingBytes: 0,
        closed: false,
      };
      if (!server?.upgrade?.(request, { data })) {
        place();
        return plain(400, 'Bad request: this address takes a WebSocket connection.');
      }
      return undefined;
    } catch (error) {
      if (isDatabaseUnavailable(error) || isDatabaseBusy(error))
        return plain(503, 'The database is out of reach; try again in a moment.', {
          'retry-after': '5',
        });
      throw error;
    }
  }

  /** Whether the connection's person may still edit its page (asked again every few seconds). */
  async function stillAllowed(data: LiveData): Promise<Refusal | null> {
    const session = await getSession(await database(), data.sessionId);
    const ownership = session ? await store().pageOwnership(data.pageId) : null;
    data.checkedAt = Date.now();
    return refusalOf(session?.editor ?? null, ownership);
  }

  /**
   * Closes a connection whose person may no longer edit its page, with the code its tab reads:
   * signed out (4401: it waits for a new session), the page deleted (4404) or not theirs to
   * edit any more (4403): it stops and says which. A deleted page said "your session ended"
   * before (hostile pass).
   */
  function refuseConnection(ws: ServerWebSocket<LiveData>, refusal: Refusal) {
    if (ws.data.closed) return;
    log.info('co-editing: a connection whose person may no longer edit the page was closed', {
      pageId: ws.data.pageId,
      code: refusal.code,
    });
    ws.data.closed = true;
    ws.close(refusal.code, refusal.reason);
  }

  /** Every open connection here, for the sweep. */
  const connections = new Set<ServerWebSocket<LiveData>>();
  let sweeper: ReturnType<typeof setInterval> | null = null;
  let sweeping = false;

  /**
   * Every LIVE_RECHECK_MS: asks again about every connection whose last answer is older than
   * that, each session and each page once however many connections share it (a person's tabs
   * share a session, a page's editors its owner), so a thousand idle connections cost a query
   * per session and per page a second, not two per connection (bench --coedit: those ran on
   * the server's thread and held up a typist's keystrokes).
   */
  async function sweep() {
    if (sweeping) return;
    sweeping = true;
    try {
      const due = [...connections].filter(
        (ws) => !ws.data.closed && Date.now() - ws.data.checkedAt >= LIVE_RECHECK_MS,
      );
      if (due.length === 0) return;
      const db = await database();
      const sessionIds = [...new Set(due.map((ws) => ws.data.sessionId))];
      const pageIds = [...new Set(due.map((ws) => ws.data.pageId))];
      const [sessions, pages] = await Promise.all([
        Promise.allSettled(sessionIds.map((id) => getSession(db, id))),
        Promise.allSettled(pageIds.map((id) => store().pageOwnership(id))),
      ]);
      const sessionOf = new Map(sessionIds.map((id, i) => [id, sessions[i]]));
      const pageOf = new Map(pageIds.map((id, i) => [id, pages[i]]));
      for (const failed of [...sessions, ...pages])
        if (failed.status === 'rejected') {
          // The database out of reach: asked again at the next sweep.
          if (isDatabaseUnavailable(failed.reason) || isDatabaseBusy(failed.reason)) continue;
          reportUnexpectedError(failed.reason, { where: 'co-editing: a session check' });
          break;
        }
      const at = Date.now();
      for (const ws of due) {
        const session = sessionOf.get(ws.data.sessionId);
        const page = pageOf.get(ws.data.pageId);
        if (session?.status !== 'fulfilled' || page?.status !== 'fulfilled') continue;
        ws.data.checkedAt = at;
        const refusal = refusalOf(session.value?.editor ?? null, page.value);
        if (refusal) refuseConnection(ws, refusal);
      }
    } catch (error) {
      if (!isDatabaseUnavailable(error) && !isDatabaseBusy(error))
        reportUnexpectedError(error, { where: 'co-editing: a session check' });
    } finally {
      sweeping = false;
    }
  }

  /**
   * Asks again when the last answer is older than `maxAgeMs`; closes the connection (4401) when
   * it is no.
   */
  async function recheck(
    ws: ServerWebSocket<LiveData>,
    maxAgeMs = LIVE_RECHECK_MS,
  ): Promise<boolean> {
    if (Date.now() - ws.data.checkedAt < maxAgeMs) return true;
    let refusal: Refusal | null;
    try {
      refusal = await stillAllowed(ws.data);
    } catch (error) {
      // The database out of reach: the update would not be stored anyway; asked again next time.
      if (isDatabaseUnavailable(error) || isDatabaseBusy(error)) return true;
      throw error;
    }
    if (refusal) refuseConnection(ws, refusal);
    return refusal === null;
  }

  /**
   * Hands the waiting messages to the document, in order, each after the session is known to
   * be good still; they wait while the document loads.
   */
  function pump(ws: ServerWebSocket<LiveData>) {
    ws.data.chain = ws.data.chain
      .then(async () => {
        while (ws.data.waiting.length > 0 && ws.data.member && !ws.data.closed) {
          if (!(await recheck(ws, isWrite(ws.data.waiting[0]) ? 0 : LIVE_RECHECK_MS))) return;
          const next = ws.data.waiting.shift();
          if (!next) continue;
          // Handled before the next is taken: what a connection sends faster than it is stored
          // waits here, within LIVE_CONNECTION_BOUND, not in an unbounded queue beyond it.
          await ws.data.member?.receive(next);
          ws.data.waitingBytes -= next.byteLength;
        }
      })
      .catch((error) => {
        reportUnexpectedError(error, { where: 'co-editing: a session check' });
      });
  }

  const websocket: WebSocketHandler<SocketData> = {
    maxPayloadLength: MAX_FRAME_BYTES,
    idleTimeout: LIVE_IDLE_SECONDS,
    backpressureLimit: LIVE_CONNECTION_BOUND.unsentBytes,
    closeOnBackpressureLimit: true,
    open(socket: ServerWebSocket<SocketData>) {
      if (!isLive(socket)) {
        const { code, reason } = (socket.data as ClosedTry).refusal;
        return socket.close(code, reason);
      }
      const ws = socket;
      const connection = {
        editor: ws.data.editor,
        person: ws.data.person,
        send: (message: Uint8Array) => {
          if (ws.data.closed) return;
          // 0: dropped, past the unsent bound (Bun closes it too): it must not go on without it.
          if (ws.sendBinary(message) === 0) {
            log.info('co-editing: a connection that was not reading was closed', {
              pageId: ws.data.pageId,
            });
            ws.data.closed = true;
            ws.close(CLOSE.tryAgain, 'too far behind; reconnect');
          }
        },
        close: (code: number, reason: string) => {
          if (ws.data.closed) return;
          ws.data.closed = true;
          ws.close(code, reason);
        },
      };
      ws.data.handshakeTimer = setTimeout(() => {
        connection.close(CLOSE.policy, 'no sync step 1 in time');
      }, LIVE_HANDSHAKE_MS);
      connections.add(ws);
      if (!sweeper) {
        sweeper = setInterval(() => void sweep(), LIVE_RECHECK_MS);
        sweeper.unref();
      }
      registry
        .join(ws.data.pageId, connection)
        .then((member) => {
          // Not joined: join closed the connection, saying why (gone, or try again).
          if (!member) return;
          if (ws.data.closed) return member.leave();
          ws.data.member = member;
          pump(ws);
        })
        .catch((error) => {
          if (isDatabaseUnavailable(error) || isDatabaseBusy(error))
            log.warn('co-editing: a document could not be loaded', { pageId: ws.data.pageId });
          else reportUnexpectedError(error, { where: 'co-editing: loading a document' });
          connection.close(CLOSE.tryAgain, 'try again');
        });
    },
    message(socket: ServerWebSocket<SocketData>, message: string | Buffer) {
      if (!isLive(socket)) return;
      const ws = socket;
      if (ws.data.closed) return;
      if (typeof message === 'string') {
        ws.data.closed = true;
        ws.close(CLOSE.unsupported, 'binary frames only');
        return;
      }
      const bytes = new Uint8Array(message);
      // Its sync step 1 (or a step 2): the client is a real one, past its handshake.
      if (ws.data.handshakeTimer && bytes[0] === MESSAGE_SYNC && (bytes[1] ?? 9) <= 1) {
        clearTimeout(ws.data.handshakeTimer);
        ws.data.handshakeTimer = null;
      }
      if (
        ws.data.waiting.length >= LIVE_CONNECTION_BOUND.waitingMessages ||
        ws.data.waitingBytes + bytes.byteLength > LIVE_CONNECTION_BOUND.waitingBytes
      ) {
        // Sent faster than they are stored (or while the document loads): the client keeps
        // them, reconnects and sends what the server lacks in its sync.
        log.info('co-editing: a connection with too much waiting was closed', {
          pageId: ws.data.pageId,
        });
        ws.data.closed = true;
        ws.close(CLOSE.tryAgain, 'too many messages waiting; reconnect');
        return;
      }
      ws.data.waiting.push(bytes);
      ws.data.waitingBytes += bytes.byteLength;
      pump(ws);
    },
    close(socket: ServerWebSocket<SocketData>) {
      if (!isLive(socket)) return;
      const ws = socket;
      ws.data.closed = true;
      connections.delete(ws);
      if (connections.size === 0 && sweeper) {
        clearInterval(sweeper);
        sweeper = null;
      }
      if (ws.data.handshakeTimer) clearTimeout(ws.data.handshakeTimer);
      ws.data.release();
      ws.data.member?.leave();
      ws.data.member = null;
    },
  };

  return { upgrade, websocket };
}

export type LiveEditing = ReturnType<typeof createLiveEditing>;
