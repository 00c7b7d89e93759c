// Awareness (cursors, who is here) between editors of a page (docs/decisions/0050, second
// slice), against servers started as the README starts them: on PostgreSQL two instances on one
// database, the editors on different ones, so every state crosses by NOTIFY; on SQLite one
// server (one process serves a site), both editors on it. A state reaches the other editor, one
// who comes later sees it at once, a connection's leaving removes it, a state too large to
// cross is dropped, and (PostgreSQL) an instance stopping takes its editors' cursors with it.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import * as awarenessProtocol from 'y-protocols/awareness';
import { openDatabase } from '../../src/lib/data/db';
import { addEditor, createSession } from '../../src/lib/editors/accounts';
import { SESSION_COOKIE } from '../../src/lib/http/routes';
import { CoeditClient } from '../coedit-client';
import { TEST_ENGINE, type ThrowAwayDatabase } from '../databases';
import {
  type RunningFolio,
  seededDatabase,
  startFolio,
  startTwoFolios,
  waitFor,
  withStore,
} from '../harness';

let made: ThrowAwayDatabase;
let servers: RunningFolio[] = [];
let cookie: string;
/** A second person, who may edit the same pages. */
let otherCookie: string;
const awarenesses: awarenessProtocol.Awareness[] = [];

beforeAll(async () => {
  made = await seededDatabase();
  servers =
    TEST_ENGINE === 'postgres'
      ? await startTwoFolios(made)
      : [await startFolio({ database: made, keepDatabase: true })];
  const db = await openDatabase(made.url, { migrate: false });
  try {
    const editor = await addEditor(db, 'cursor@example.com', 'the cursor passphrase');
    cookie = `${SESSION_COOKIE}=${(await createSession(db.query, editor.id)).id}`;
    const mallory = await addEditor(db, 'mallory@example.com', 'the other passphrase');
    otherCookie = `${SESSION_COOKIE}=${(await createSession(db.query, mallory.id)).id}`;
  } finally {
    await db.close();
  }
  for (const slug of ['cursors', 'too-large', 'stopping', 'spoofing'])
    await withStore(servers[0] as RunningFolio, (store) =>
      store.putPage({ slug, title: slug, summary: '', body: 'Text.\n' }),
    );
}, 90_000);

afterAll(async () => {
  for (const awareness of awarenesses) awareness.destroy();
  for (const server of servers) await server.stop();
  await made?.drop();
});

/** The first instance, and the other one (the same one on SQLite). */
const first = () => servers[0] as RunningFolio;
const other = () => servers[servers.length - 1] as RunningFolio;

/** An editor with its awareness, as a browser's binding would have it. */
async function editorOn(server: RunningFolio, slug: string, name: string, as = cookie) {
  const client = new CoeditClient(name);
  const awareness = new awarenessProtocol.Awareness(client.doc);
  awarenesses.push(awareness);
  client.onOther = (kind, decoder) => {
    if (kind === 1)
      awarenessProtocol.applyAwarenessUpdate(
        awareness,
        decoding.readVarUint8Array(decoder),
        'server',
      );
  };
  await client.connect(`${server.url.replace('http:', 'ws:')}/preview/${slug}?live`, {
    cookie: as,
    origin: server.url,
  });
  const id = client.doc.clientID;
  return {
    client,
    awareness,
    id,
    /** Sets this editor's state and sends it, as y-protocols' clients do. */
    say(state: Record<string, unknown>) {
      awareness.setLocalState(state);
      this.send(awarenessProtocol.encodeAwarenessUpdate(awareness, [id]));
    },
    /** Sends an awareness update as it is. */
    send(update: Uint8Array) {
      const encoder = encoding.createEncoder();
      encoding.writeVarUint(encoder, 1);
      encoding.writeVarUint8Array(encoder, update);
      client.sendRaw(encoding.toUint8Array(encoder) as Uint8Array<ArrayBuffer>);
    },
    /** What this editor knows of another's state. */
    stateOf(clientId: number): Record<string, unknown> | undefined {
      return awareness.getStates().get(clientId);
    },
  };
}

const across = TEST_ENGINE === 'postgres' ? 'across instances' : 'on the one server';

describe(`awareness ${across} (${TEST_ENGINE})`, () => {
  test('a state reaches the other editor, one who joins later sees it at once, leaving removes it', async () => {
    const a = await editorOn(first(), 'cursors', 'a');
    a.say({ user: { name: 'Ada' }, cursor: 3 });
    // Opened on the other instance after the state was sent (and never sent again): it
    // reaches b only if that instance asks for it when it opens the page.
    const b = await editorOn(other(), 'cursors', 'b');
    await waitFor(() => (b.stateOf(a.id)?.cursor === 3 ? true : undefined), {
      what: () => `a's state at b: ${JSON.stringify(b.stateOf(a.id))}`,
    });
    // The server names the person signed in on the connection (no author profile: the e-mail).
    expect(b.stateOf(a.id)?.user).toEqual({
      key: 'cursor@example.com',
      name: 'cursor@example.com',
    });
    a.say({ user: { name: 'Ada' }, cursor: 7 });
    b.say({ user: { name: 'Bo' }, cursor: 1 });
    await waitFor(() => (b.stateOf(a.id)?.cursor === 7 ? true : undefined), {
      what: 'a cursor move at b',
    });
    await waitFor(() => (a.stateOf(b.id)?.cursor === 1 ? true : undefined), {
      what: "b's state at a",
    });
    a.client.disconnect();
    await waitFor(() => (b.stateOf(a.id) === undefined ? true : undefined), {
      what: 'a to leave b’s editor',
    });
    b.client.disconnect();
  }, 30_000);

  test('a state too large to cross is dropped everywhere; its connection stays', async () => {
    const a = await editorOn(first(), 'too-large', 'a');
    const b = await editorOn(other(), 'too-large', 'b');
    const seen: unknown[] = [];
    b.awareness.on('change', () => seen.push(b.stateOf(a.id)));
    a.say({ user: { name: 'Ada' }, note: 'x'.repeat(7_000) });
    a.say({ user: { name: 'Ada' }, cursor: 2 });
    await waitFor(() => (b.stateOf(a.id)?.cursor === 2 ? true : undefined), {
      what: 'the next, small state',
    });
    expect(seen.some((state) => JSON.stringify(state ?? null).includes('xxxx'))).toBe(false);
    expect(a.client.connected).toBe(true);
    a.client.disconnect();
    b.client.disconnect();
  }, 30_000);

  test("a state names the person signed in, a colour is a colour, and another's caret is not anyone else's to move or remove", async () => {
    const a = await editorOn(first(), 'spoofing', 'a');
    const m = await editorOn(other(), 'spoofing', 'm', otherCookie);
    a.say({ user: { key: 'cursor@example.com', name: 'Ada', color: '#1b6e3a' }, cursor: 1 });
    m.say({
      user: {
        key: 'cursor@example.com',
        name: 'Ada',
        color: 'red; background-image: url(https://example.com/who-reads)',
        colorLight: '#0b57d033',
      },
      cursor: 2,
    });
    await waitFor(() => (a.stateOf(m.id)?.cursor === 2 ? true : undefined), {
      what: "m's state at a",
    });
    // Neither the name nor the key m claimed: the account m signed in with. The colour that
    // would have gone into a style attribute is gone; a plain one stays.
    expect(a.stateOf(m.id)?.user).toEqual({
      key: 'mallory@example.com',
      name: 'mallory@example.com',
      colorLight: '#0b57d033',
    });
    await waitFor(() => (m.stateOf(a.id)?.cursor === 1 ? true : undefined), {
      what: "a's state at m",
    });
    // m speaks for a's client id: moving a's caret, then removing it (a null state, a later
    // clock). Neither reaches a, nor m's own view from the server.
    const forged = new awarenessProtocol.Awareness(new (await import('yjs')).Doc());
    awarenesses.push(forged);
    forged.clientID = a.id;
    forged.setLocalState({ user: { key: 'cursor@example.com', name: 'Ada' }, cursor: 99 });
    for (let i = 0; i < 5; i += 1) forged.setLocalState({ cursor: 99 });
    m.send(awarenessProtocol.encodeAwarenessUpdate(forged, [a.id]));
    forged.setLocalState(null);
    m.send(awarenessProtocol.encodeAwarenessUpdate(forged, [a.id]));
    // a's own next move arrives at m after whatever m sent: by then the forgeries would have
    // landed, had they been taken.
    a.say({ user: { key: 'cursor@example.com', name: 'Ada' }, cursor: 5 });
    await waitFor(() => (m.stateOf(a.id)?.cursor === 5 ? true : undefined), {
      what: "a's next move at m",
    });
    const b = await editorOn(first(), 'spoofing', 'b');
    await waitFor(() => (b.stateOf(a.id)?.cursor === 5 ? true : undefined), {
      what: "a's state at a newcomer",
    });
    expect(a.client.connected && m.client.connected).toBe(true);
    for (const editor of [a, m, b]) editor.client.disconnect();
  }, 30_000);

  test.if(TEST_ENGINE === 'postgres')(
    'an instance stopping takes its editors’ cursors from the other’s at once, not at the 30 s timeout',
    async () => {
      const a = await editorOn(first(), 'stopping', 'a');
      const b = await editorOn(other(), 'stopping', 'b');
      a.say({ user: { name: 'Ada' }, cursor: 4 });
      await waitFor(() => (b.stateOf(a.id)?.cursor === 4 ? true : undefined), {
        what: "a's state at b",
      });
      const stopped = Date.now();
      expect(await first().stop('SIGTERM')).toBe(0);
      await waitFor(() => (b.stateOf(a.id) === undefined ? true : undefined), {
        timeoutMs: 15_000,
        what: 'a to leave b’s editor',
      });
      expect(Date.now() - stopped).toBeLessThan(15_000);
      b.client.disconnect();
    },
    60_000,
  );

  test('none of it was reported as an error of a server', () => {
    for (const server of servers) {
      expect(server.unexpectedErrors()).toEqual([]);
      expect(server.logLines().filter((line) => line.level === 'error')).toEqual([]);
    }
  });
});
