// The co-editing registry and its storage on a real database (docs/decisions/0050): two
// registries on one database stand for two instances. A page's document is seeded once, from
// its draft, whoever opens it first; an update is stored before it is acknowledged and reaches
// the other instance's editors; compaction keeps the document whole; the merged text becomes
// the draft; a save by the form while nobody had the document open is kept as an edit.
import { afterEach, describe, expect, test } from 'bun:test';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import * as Y from 'yjs';
import { expectConsoleErrors } from '../../../tests/console-guard';
import { openTestDatabase, TEST_ENGINE } from '../../../tests/databases';
import { waitFor } from '../../../tests/harness';
import { createContentStore } from '../content/content';
import { type Database, openDatabase } from '../data/db';
import type { Editor } from '../editors/accounts';
import {
  CLOSE,
  COEDIT_LIMITS,
  type CoeditOptions,
  type Connection,
  createCoeditRegistry,
  draftsWrittenHere,
  MESSAGE_IDENTITY,
  MESSAGE_NOTICE,
  MESSAGE_PERSON,
  type Member,
  textChangedHere,
} from './documents';
import { documentIdentity } from './identity';
import { type DraftNotice, parseNotice } from './notice';
import {
  appendIfAt,
  appendUpdate,
  DamagedDocument,
  startAfresh,
  storedFields,
  storedText,
} from './storage';

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

const EDITOR: Editor = { id: 1, email: 'writer@example.com', role: 'owner' };
const FAST = { draftDelayMs: 20, pollMs: 100, unloadAfterMs: 100 };

/**
 * Two instances' connections to one throw-away database. On SQLite one process serves a site
 * (two processes writing at once wait synchronously on each other's lock), so there the two
 * registries share one connection: the storage protocol between them is the same.
 */
async function twoInstances(): Promise<[Database, Database]> {
  const first = await openTestDatabase();
  stops.push(() => first.dispose());
  if (first.engine === 'sqlite') return [first, first];
  const second = await openDatabase(first.url, { poolSize: 3 });
  stops.push(() => second.close());
  return [first, second];
}

async function registryOn(db: Database, options: CoeditOptions = FAST) {
  const registry = createCoeditRegistry(db, createContentStore(db), options);
  await registry.follow();
  stops.push(() => registry.stop());
  return registry;
}

/** An editor's side as the registry sees it: its doc, the acknowledgements, the closes. */
function fakeEditor() {
  const doc = new Y.Doc();
  const state = { acks: 0, closed: null as number | null, synced: false };
  const connection: Connection = {
    editor: EDITOR,
    send(message) {
      const decoder = decoding.createDecoder(message);
      const kind = decoding.readVarUint(decoder);
      if (kind === 4) state.acks = decoding.readVarUint(decoder);
      if (kind !== 0) return;
      const step = decoding.readVarUint(decoder);
      const payload = decoding.readVarUint8Array(decoder);
      if (step !== 0) Y.applyUpdate(doc, payload, 'server');
      if (step === 1) state.synced = true;
    },
    close(code) {
      state.closed = code;
    },
  };
  return { doc, state, connection };
}

function updateMessage(update: Uint8Array): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, 0);
  encoding.writeVarUint(encoder, 2);
  encoding.writeVarUint8Array(encoder, update);
  return encoding.toUint8Array(encoder);
}

/** Joins as a client does: its sync step 1, answered with the server's state. */
async function joinSynced(
  registry: Awaited<ReturnType<typeof registryOn>>,
  pageId: number,
  editor: ReturnType<typeof fakeEditor>,
): Promise<Member> {
  const member = await registry.join(pageId, editor.connection);
  if (!member) throw new Error('not joined');
  const sync = encoding.createEncoder();
  encoding.writeVarUint(sync, 0);
  encoding.writeVarUint(sync, 0);
  encoding.writeVarUint8Array(sync, Y.encodeStateVector(editor.doc));
  member.receive(encoding.toUint8Array(sync));
  await waitFor(() => (editor.state.synced ? true : undefined), { what: 'the sync' });
  return member;
}

/** Edits `doc`'s field (the body unless named) and sends the edit as its connection would. */
function edit(doc: Y.Doc, member: Member, change: (text: Y.Text) => void, field = 'body') {
  const before = Y.encodeStateVector(doc);
  change(doc.getText(field));
  member.receive(updateMessage(Y.encodeStateAsUpdate(doc, before)));
}

/**
 * `pageId` open on an instance whose draft write and poll are a minute away, its typist's
 * " Acknowledged." stored: what rows deleted by hand then take is in that instance's memory only.
 */
async function typedAcknowledged(db: Database, pageId: number) {
  const registry = await registryOn(db, { ...FAST, draftDelayMs: 60_000, pollMs: 60_000 });
  const typist = fakeEditor();
  const member = await joinSynced(registry, pageId, typist);
  edit(typist.doc, member, (text) => text.insert(text.length, ' Acknowledged.'));
  await waitFor(() => (typist.state.acks >= 1 ? true : undefined), { what: 'the ack' });
  return { registry, typist, member };
}

/** The page's document deleted as an operator's psql would: its updates, then its row. */
async function deleteRowsByHand(db: Database, pageId: number) {
  await db.query`DELETE FROM coedit_updates WHERE page_id = ${pageId}`;
  await db.query`DELETE FROM coedit_documents WHERE page_id = ${pageId}`;
}

async function newPage(
  db: Database,
  slug: string,
  body: string,
  { title = slug, summary = '' } = {},
): Promise<number> {
  const store = createContentStore(db);
  await store.putPage({ slug, title, summary, body });
  const page = await store.getPage(slug, { draft: true });
  if (!page) throw new Error('no page');
  return page.id;
}

/** A connection that keeps the identities it is told (Folio's message 5) and its close. */
function identityListener() {
  const heard = {
    kinds: [] as number[],
    identities: [] as string[],
    people: [] as string[],
    closed: null as number | null,
  };
  const connection: Connection = {
    editor: EDITOR,
    send(message) {
      const decoder = decoding.createDecoder(message);
      const kind = decoding.readVarUint(decoder);
      heard.kinds.push(kind);
      if (kind === MESSAGE_IDENTITY) heard.identities.push(decoding.readVarString(decoder));
      if (kind === MESSAGE_PERSON) heard.people.push(decoding.readVarString(decoder));
    },
    close(code) {
      heard.closed = code;
    },
  };
  return { heard, connection };
}

describe(`co-editing documents (${TEST_ENGINE})`, () => {
  test('a connection is told the document’s identity first; a row made again is another document, the loaded one let go', async () => {
    const [a] = await twoInstances();
    const pageId = await newPage(a, 'identity', 'Start.');
    // The poll slow: the join alone must find the row made again.
    const registry = await registryOn(a, { ...FAST, pollMs: 60_000 });
    const first = identityListener();
    expect(await registry.join(pageId, first.connection)).not.toBeNull();
    expect(first.heard.kinds[0]).toBe(MESSAGE_IDENTITY);
    // Then who the connection's person is (a tab of another stops before its sync), then sync.
    expect(first.heard.kinds[1]).toBe(MESSAGE_PERSON);
    expect(first.heard.people).toEqual([EDITOR.email.toLowerCase()]);
    expect(first.heard.kinds[2]).toBe(0);
    const [identity] = first.heard.identities;
    const [row] = await a.query<{ created_at: string }>`
      SELECT created_at FROM coedit_documents WHERE page_id = ${pageId}`;
    expect(identity).toBe(documentIdentity(pageId, String(row?.created_at)));
    // Another connection to the same document: the same identity.
    const second = identityListener();
    await registry.join(pageId, second.connection);
    expect(second.heard.identities).toEqual([identity as string]);

    // The row deleted while the document is loaded (db copy leaves a site without one).
    await Bun.sleep(5);
    await deleteRowsByHand(a, pageId);
    const third = identityListener();
    expect(await registry.join(pageId, third.connection)).not.toBeNull();
    const [fresh] = third.heard.identities;
    expect(fresh).toBeDefined();
    expect(fresh).not.toBe(identity);
    // The connections to the old one are closed to come back (1013), told the new identity then.
    expect(first.heard.closed).toBe(1013);
    expect(second.heard.closed).toBe(1013);
    expect(third.heard.closed).toBeNull();
    expect(await storedText(a.query, pageId)).toBe('Start.');
  });

  test('a join that cannot be served says why: a page gone is for good, a stopping server is try again', async () => {
    // A refusal for good (1008, as this said before) stopped a tab's live editing for a
    // reconnect that came while an instance restarted.
    const [a] = await twoInstances();
    const registry = await registryOn(a);
    const nowhere = identityListener();
    expect(await registry.join(2_147_483_000, nowhere.connection)).toBeNull();
    expect(nowhere.heard.closed).toBe(CLOSE.gone);

    const pageId = await newPage(a, 'stopping', 'Start.');
    const during = identityListener();
    const joining = registry.join(pageId, during.connection);
    await registry.stop();
    await joining;
    expect(during.heard.closed).toBe(CLOSE.restart);
    const after = identityListener();
    expect(await registry.join(pageId, after.connection)).toBeNull();
    expect(after.heard.closed).toBe(CLOSE.restart);
    expect(registry.stats()).toEqual({ documents: 0, connections: 0 });
  });

  test('only its updates deleted by hand, the row left: written from memory and made again, nothing typed lost, nothing reported', async () => {
    // The hostile pass: every draft write after it failed ("stored updates skip from 0 to 73",
    // reported as a bug), the draft stayed without the typing, and no instance could load it.
    const logged = expectConsoleErrors();
    const [a] = await twoInstances();
    const pageId = await newPage(a, 'deleted-updates', 'Start.');
    const registry = await registryOn(a, { ...FAST, pollMs: 60_000 });
    const typist = fakeEditor();
    const member = await joinSynced(registry, pageId, typist);
    edit(typist.doc, member, (text) => text.insert(text.length, ' Acknowledged.'));
    await waitFor(() => (typist.state.acks >= 1 ? true : undefined), { what: 'the ack' });
    await a.query`DELETE FROM coedit_updates WHERE page_id = ${pageId}`;
    // Typed on: stored after the gap, and the draft written a moment later reads from the start.
    edit(typist.doc, member, (text) => text.insert(text.length, ' After the delete.'));
    await waitFor(() => (typist.state.closed === 1013 ? true : undefined), {
      what: 'the damaged document let go',
    });
    const store = createContentStore(a);
    expect((await store.getPage('deleted-updates', { draft: true }))?.bodyMarkdown).toBe(
      'Start. Acknowledged. After the delete.',
    );
    const next = fakeEditor();
    await joinSynced(registry, pageId, next);
    expect(next.doc.getText('body').toString()).toBe('Start. Acknowledged. After the delete.');
    // Said as a warning, never as an unexpected error (nothing to report to Sentry).
    expect(logged.lines().some((line) => line.includes('missing updates'))).toBe(true);
    expect(logged.lines().filter((line) => line.includes('"level":"error"'))).toEqual([]);
  });

  // The hostile pass on the above: a gap inside the rows read, or a missing tail, was taken for
  // the end of the document. The draft was written without every later update, the tab said
  // "Saved", and a live save saved the text with them missing.
  for (const shape of ['middle', 'last'] as const)
    test(`its ${shape} updates deleted by hand: read whole it is damaged, and the draft is written from memory`, async () => {
      const logged = expectConsoleErrors();
      const [a] = await twoInstances();
      const pageId = await newPage(a, `deleted-${shape}`, 'Start.');
      // No draft write but the one asked for: one due as the rows are deleted would find the
      // damage before " Five." is stored, and it would rightly not be acknowledged.
      const registry = await registryOn(a, { ...FAST, draftDelayMs: 60_000, pollMs: 60_000 });
      const typist = fakeEditor();
      const member = await joinSynced(registry, pageId, typist);
      for (const word of [' One.', ' Two.', ' Three.', ' Four.']) {
        const acks = typist.state.acks;
        edit(typist.doc, member, (text) => text.insert(text.length, word));
        await waitFor(() => (typist.state.acks > acks ? true : undefined), { what: 'the ack' });
      }
      const rows = await a.query<{ seq: number | string }>`
        SELECT seq FROM coedit_updates WHERE page_id = ${pageId} ORDER BY seq`;
      const seqs = rows.map((row) => Number(row.seq));
      expect(seqs.length).toBeGreaterThanOrEqual(5);
      const [from, to] = shape === 'middle' ? [seqs[2], seqs[3]] : [seqs[3], seqs.at(-1)];
      await a.query`DELETE FROM coedit_updates
        WHERE page_id = ${pageId} AND seq >= ${from} AND seq <= ${to}`;
      await expect(storedFields(a.query, pageId)).rejects.toBeInstanceOf(DamagedDocument);
      // The next draft write finds it damaged: this memory, which holds every update, is written.
      const acks = typist.state.acks;
      edit(typist.doc, member, (text) => text.insert(text.length, ' Five.'));
      await waitFor(() => (typist.state.acks > acks ? true : undefined), { what: 'the ack' });
      await draftsWrittenHere(pageId);
      await waitFor(() => (typist.state.closed === 1013 ? true : undefined), {
        what: 'the damaged document let go',
      });
      const store = createContentStore(a);
      expect((await store.getPage(`deleted-${shape}`, { draft: true }))?.bodyMarkdown).toBe(
        'Start. One. Two. Three. Four. Five.',
      );
      expect(logged.lines().some((line) => line.includes('missing updates'))).toBe(true);
      expect(logged.lines().filter((line) => line.includes('"level":"error"'))).toEqual([]);
    });

  test('only its updates deleted by hand, then typed on past a compaction: never an empty draft', async () => {
    // The walk-through: compaction merged the updates stored after the gap into a snapshot that
    // hid it; read from that, the text was empty, and was written as the page's draft.
    const logged = expectConsoleErrors();
    const [a] = await twoInstances();
    const pageId = await newPage(a, 'deleted-compacted', 'Start.');
    const { registry, typist, member } = await typedAcknowledged(a, pageId);
    await a.query`DELETE FROM coedit_updates WHERE page_id = ${pageId}`;
    // More typed than a compaction takes (its threshold), each stored after the gap.
    for (let i = 0; i < COEDIT_LIMITS.compactEvery + 5; i += 1)
      edit(typist.doc, member, (text) => text.insert(text.length, '.'));
    await waitFor(
      () =>
        typist.state.closed === 1013 || typist.state.acks >= COEDIT_LIMITS.compactEvery
          ? true
          : undefined,
      {
        what: 'the typing stored, or the damaged document let go',
      },
    );
    await registry.stop();
    const store = createContentStore(a);
    const body = (await store.getPage('deleted-compacted', { draft: true }))?.bodyMarkdown ?? '';
    expect(body.startsWith('Start. Acknowledged.')).toBe(true);
    expect(logged.lines().filter((line) => line.includes('"level":"error"'))).toEqual([]);
  });

  test('only its updates deleted by hand, nobody on it: a join drops it and says try again; the next is made from the draft', async () => {
    const logged = expectConsoleErrors();
    const [a] = await twoInstances();
    const pageId = await newPage(a, 'deleted-updates-idle', 'Start.');
    const first = await registryOn(a, { ...FAST, unloadAfterMs: 60_000 });
    const typist = fakeEditor();
    const member = await joinSynced(first, pageId, typist);
    edit(typist.doc, member, (text) => text.insert(text.length, ' Written.'));
    const store = createContentStore(a);
    await waitFor(
      async () =>
        (await store.getPage('deleted-updates-idle', { draft: true }))?.bodyMarkdown ===
        'Start. Written.'
          ? true
          : undefined,
      { what: 'the draft written' },
    );
    await first.stop();
    await a.query`DELETE FROM coedit_updates WHERE page_id = ${pageId}`;
    const registry = await registryOn(a);
    const refused = identityListener();
    expect(await registry.join(pageId, refused.connection)).toBeNull();
    expect(refused.heard.closed).toBe(1013);
    const next = fakeEditor();
    await joinSynced(registry, pageId, next);
    expect(next.doc.getText('body').toString()).toBe('Start. Written.');
    expect(logged.lines().filter((line) => line.includes('"level":"error"'))).toEqual([]);
  });

  test('rows deleted by hand while typed into: what was acknowledged since the last draft write is in the document made again', async () => {
    // The walk-through: two people typing through such a delete got their paragraphs twice,
    // the new document seeded from a draft a few keystrokes old.
    const [a] = await twoInstances();
    const pageId = await newPage(a, 'deleted-rows', 'Start.');
    // The draft written late, and the poll slow: the next update finds the row gone.
    const { registry, typist, member } = await typedAcknowledged(a, pageId);
    const store = createContentStore(a);
    expect((await store.getPage('deleted-rows', { draft: true }))?.bodyMarkdown).toBe('Start.');

    await deleteRowsByHand(a, pageId);
    edit(typist.doc, member, (text) => text.insert(text.length, ' Not stored.'));
    await waitFor(() => (typist.state.closed === 1013 ? true : undefined), {
      what: 'the old document’s connection closed',
    });
    expect(typist.state.acks).toBe(1);
    expect((await store.getPage('deleted-rows', { draft: true }))?.bodyMarkdown).toBe(
      'Start. Acknowledged.',
    );
    const next = identityListener();
    expect(await registry.join(pageId, next.connection)).not.toBeNull();
    expect(await storedText(a.query, pageId)).toBe('Start. Acknowledged.');
  });

  test('rows deleted by hand under two instances: what only one had heard of is in the draft, whichever rescues last', async () => {
    // The second re-check, one round in nine: each instance wrote its memory as the draft, the
    // last one lacking a character only the other had stored, and it was lost everywhere.
    const [a, b] = await twoInstances();
    const pageId = await newPage(a, 'deleted-twice', 'Start.');
    // Neither follows the other (no notification, no poll): each hears the other only when a
    // write of its own finds the row moved on, or gone.
    const unfollowed = (db: Database) => {
      const registry = createCoeditRegistry(db, createContentStore(db), {
        ...FAST,
        draftDelayMs: 60_000,
      });
      stops.push(() => registry.stop());
      return registry;
    };
    const [ra, rb] = [unfollowed(a), unfollowed(b)];
    const [one, two] = [fakeEditor(), fakeEditor()];
    const [ma, mb] = [await joinSynced(ra, pageId, one), await joinSynced(rb, pageId, two)];
    edit(two.doc, mb, (text) => text.insert(text.length, ' Bee.'));
    await waitFor(() => (two.state.acks >= 1 ? true : undefined), { what: 'B’s ack' });
    // A stores after B: it reads B's update first, and B never hears of A's.
    edit(one.doc, ma, (text) => text.insert(0, 'Ay. '));
    await waitFor(() => (one.state.acks >= 1 ? true : undefined), { what: 'A’s ack' });
    expect(await storedText(a.query, pageId)).toBe('Ay. Start. Bee.');

    await deleteRowsByHand(a, pageId);
    // A finds the row gone first and writes what it holds; then B, which lacks "Ay.".
    edit(one.doc, ma, (text) => text.insert(text.length, ' Unsent.'));
    await waitFor(() => (one.state.closed === 1013 ? true : undefined), { what: 'A let go' });
    edit(two.doc, mb, (text) => text.insert(text.length, ' Unsent.'));
    await waitFor(() => (two.state.closed === 1013 ? true : undefined), { what: 'B let go' });
    const store = createContentStore(a);
    expect((await store.getPage('deleted-twice', { draft: true }))?.bodyMarkdown).toBe(
      'Ay. Start. Bee.',
    );
  });

  // PostgreSQL tells every instance of a deleted row (migration 34): found only by the poll or
  // an instance's next write, one seconds late met a new document already made, and what only
  // it had stored was lost. SQLite's one process has no other instance to tell.
  test.skipIf(TEST_ENGINE !== 'postgres')(
    'rows deleted by hand: an instance typing nothing, its poll a minute away, writes its text as the draft at once',
    async () => {
      const [a, b] = await twoInstances();
      const pageId = await newPage(a, 'deleted-told', 'Start.');
      const slow = { ...FAST, draftDelayMs: 60_000, pollMs: 60_000 };
      const [ra] = [await registryOn(a, slow), await registryOn(b, slow)];
      const typist = fakeEditor();
      const member = await joinSynced(ra, pageId, typist);
      edit(typist.doc, member, (text) => text.insert(text.length, ' Acknowledged.'));
      await waitFor(() => (typist.state.acks >= 1 ? true : undefined), { what: 'the ack' });
      // Deleted through the other instance's connection, as an operator's psql would.
      await b.query`DELETE FROM coedit_updates WHERE page_id = ${pageId}`;
      await b.query`DELETE FROM coedit_documents WHERE page_id = ${pageId}`;
      await waitFor(() => (typist.state.closed === 1013 ? true : undefined), {
        what: 'the old document’s connection closed, told of the delete',
        timeoutMs: 10_000,
      });
      const store = createContentStore(a);
      expect((await store.getPage('deleted-told', { draft: true }))?.bodyMarkdown).toBe(
        'Start. Acknowledged.',
      );
    },
  );

  test('rows deleted by hand as a draft write is due: nothing is written from them, never an empty page', async () => {
    // The hostile pass: a draft write after the delete (due, or an action's flush: Publish, an
    // instance stopping) read no rows, and wrote the empty text as the page's draft.
    const [a] = await twoInstances();
    const pageId = await newPage(a, 'deleted-flush', 'Start.');
    const { registry } = await typedAcknowledged(a, pageId);
    await deleteRowsByHand(a, pageId);
    await draftsWrittenHere(pageId);
    const store = createContentStore(a);
    const body = (await store.getPage('deleted-flush', { draft: true }))?.bodyMarkdown;
    // The rescue's text, or the draft as it was; never nothing.
    expect(['Start.', 'Start. Acknowledged.']).toContain(body ?? '');
    await registry.stop();
    expect((await store.getPage('deleted-flush', { draft: true }))?.bodyMarkdown).not.toBe('');
  });

  test('rows deleted by hand as the instance stops: what only its memory held is written as the draft', async () => {
    const [a] = await twoInstances();
    const pageId = await newPage(a, 'deleted-stopping', 'Start.');
    const { registry } = await typedAcknowledged(a, pageId);
    await deleteRowsByHand(a, pageId);
    await registry.stop();
    const store = createContentStore(a);
    expect((await store.getPage('deleted-stopping', { draft: true }))?.bodyMarkdown).toBe(
      'Start. Acknowledged.',
    );
  });

  test('the poll lets go of a loaded document whose row was made again', async () => {
    const [a] = await twoInstances();
    const pageId = await newPage(a, 'identity-poll', 'Start.');
    const registry = await registryOn(a);
    const first = identityListener();
    await registry.join(pageId, first.connection);
    await deleteRowsByHand(a, pageId);
    await waitFor(() => (first.heard.closed === 1013 ? true : undefined), {
      what: 'the old document’s connection closed',
    });
  });

  test('two instances opening a page at once seed it once, from its draft, and agree', async () => {
    const [a, b] = await twoInstances();
    const pageId = await newPage(a, 'seeded', 'Once upon a time.\n');
    const [ra, rb] = await Promise.all([registryOn(a), registryOn(b)]);
    const one = fakeEditor();
    const two = fakeEditor();
    const [ma, mb] = await Promise.all([
      ra.join(pageId, one.connection),
      rb.join(pageId, two.connection),
    ]);
    expect(ma).not.toBeNull();
    expect(mb).not.toBeNull();
    const [row] = await a.query<{ n: number | string }>`
      SELECT COUNT(*) AS n FROM coedit_updates WHERE page_id = ${pageId}`;
    expect(Number(row?.n)).toBe(1);
    expect(await storedText(a.query, pageId)).toBe('Once upon a time.\n');
  });

  test('an update is stored before it is acknowledged, and reaches the other instance’s editor', async () => {
    const [a, b] = await twoInstances();
    const pageId = await newPage(a, 'relayed', 'Hello.\n');
    const [ra, rb] = [await registryOn(a), await registryOn(b)];
    const writer = fakeEditor();
    const reader = fakeEditor();
    const member = await joinSynced(ra, pageId, writer);
    await joinSynced(rb, pageId, reader);
    expect(writer.doc.getText('body').toString()).toBe('Hello.\n');
    edit(writer.doc, member, (text) => text.insert(6, ' World'));
    await waitFor(() => (writer.state.acks >= 1 ? true : undefined), { what: 'the ack' });
    // Acknowledged: in the database, whatever becomes of this instance.
    expect(await storedText(b.query, pageId)).toBe('Hello. World\n');
    await waitFor(
      () => (reader.doc.getText('body').toString() === 'Hello. World\n' ? true : undefined),
      { what: () => `the other instance's editor to see it: ${reader.doc.getText('body')}` },
    );
  });

  test('the merged text becomes the draft; compaction keeps the document whole', async () => {
    const [a] = await twoInstances();
    const pageId = await newPage(a, 'compacted', 'A');
    // The draft written once the edits stop, not after each.
    const registry = await registryOn(a, { ...FAST, draftDelayMs: 500 });
    const writer = fakeEditor();
    const member = await joinSynced(registry, pageId, writer);
    expect(writer.doc.getText('body').toString()).toBe('A');
    for (let i = 0; i < 230; i += 1)
      edit(writer.doc, member, (text) => text.insert(text.length, String(i % 10)));
    await waitFor(() => (writer.state.acks >= 230 ? true : undefined), {
      timeoutMs: 30_000,
      what: () => `230 acknowledgements (${writer.state.acks})`,
    });
    const expected = writer.doc.getText('body').toString();
    const [head] = await a.query<{ snapshot_seq: number | string }>`
      SELECT snapshot_seq FROM coedit_documents WHERE page_id = ${pageId}`;
    expect(Number(head?.snapshot_seq)).toBeGreaterThanOrEqual(200);
    const [left] = await a.query<{ n: number | string }>`
      SELECT COUNT(*) AS n FROM coedit_updates WHERE page_id = ${pageId}`;
    expect(Number(left?.n)).toBeLessThan(40);
    expect(await storedText(a.query, pageId)).toBe(expected);
    const store = createContentStore(a);
    await waitFor(
      async () =>
        (await store.getPage('compacted', { draft: true }))?.bodyMarkdown === expected
          ? true
          : undefined,
      { what: 'the draft to be the merged text' },
    );
    const page = await store.getPage('compacted', { draft: true });
    expect(page?.draftUpdatedBy).toBe(EDITOR.email);
  });

  test('a save by the form while nobody had the document open is kept as an edit of it', async () => {
    const [a] = await twoInstances();
    const pageId = await newPage(a, 'form-saved', 'First.\n');
    const registry = await registryOn(a);
    const first = fakeEditor();
    const member = (await registry.join(pageId, first.connection)) as Member;
    member.leave();
    await waitFor(() => (registry.stats().documents === 0 ? true : undefined), {
      what: 'the idle document to be unloaded',
    });
    const store = createContentStore(a);
    const page = await store.getPage('form-saved', { draft: true });
    await store.saveDraft({
      slug: 'form-saved',
      pageId,
      title: 'form-saved',
      summary: '',
      body: 'First.\nSecond, from the form.\n',
      expectedVersion: page?.version ?? 0,
      editor: null,
    });
    const again = fakeEditor();
    await registry.join(pageId, again.connection);
    expect(await storedText(a.query, pageId)).toBe('First.\nSecond, from the form.\n');
  });

  test('two instances loading a page a form saved meanwhile take its text once', async () => {
    const [a, b] = await twoInstances();
    const pageId = await newPage(a, 'loaded-twice', 'One.\n');
    const first = createCoeditRegistry(a, createContentStore(a), FAST);
    await first.join(pageId, fakeEditor().connection);
    await first.stop();
    const store = createContentStore(a);
    const page = await store.getPage('loaded-twice', { draft: true });
    await store.saveDraft({
      slug: 'loaded-twice',
      pageId,
      title: 'loaded-twice',
      summary: '',
      body: 'One.\nTwo, from the form.\n',
      expectedVersion: page?.version ?? 0,
      editor: null,
    });
    const [ra, rb] = await Promise.all([registryOn(a), registryOn(b)]);
    const one = fakeEditor();
    const two = fakeEditor();
    await Promise.all([joinSynced(ra, pageId, one), joinSynced(rb, pageId, two)]);
    expect(await storedText(a.query, pageId)).toBe('One.\nTwo, from the form.\n');
    await waitFor(
      () =>
        [one, two].every(
          (editor) => editor.doc.getText('body').toString() === 'One.\nTwo, from the form.\n',
        )
          ? true
          : undefined,
      { what: 'both editors to have the form’s text once' },
    );
  });

  test('title and summary are in the document beside the body: seeded from the draft, written back as it', async () => {
    const [a, b] = await twoInstances();
    const pageId = await newPage(a, 'fielded', 'Body.\n', {
      title: 'A title',
      summary: 'A summary.',
    });
    const [ra, rb] = [await registryOn(a), await registryOn(b)];
    const writer = fakeEditor();
    const reader = fakeEditor();
    const member = await joinSynced(ra, pageId, writer);
    await joinSynced(rb, pageId, reader);
    expect(writer.doc.getText('title').toString()).toBe('A title');
    expect(writer.doc.getText('summary').toString()).toBe('A summary.');
    edit(writer.doc, member, (text) => text.insert(text.length, ', retitled'), 'title');
    edit(writer.doc, member, (text) => text.insert(0, 'New. '), 'summary');
    await waitFor(() => (writer.state.acks >= 2 ? true : undefined), { what: 'the acks' });
    expect(await storedFields(b.query, pageId)).toEqual({
      title: 'A title, retitled',
      summary: 'New. A summary.',
      body: 'Body.\n',
    });
    await waitFor(
      () => (reader.doc.getText('title').toString() === 'A title, retitled' ? true : undefined),
      { what: 'the other instance’s editor to see the title' },
    );
    const store = createContentStore(a);
    await waitFor(
      async () => {
        const page = await store.getPage('fielded', { draft: true });
        return page?.title === 'A title, retitled' && page.summary === 'New. A summary.'
          ? true
          : undefined;
      },
      { what: 'the draft to take the title and summary' },
    );
    // A title emptied while it is retyped: the body's edit is still written, under the page's
    // last title; the document keeps what was typed (nothing).
    edit(writer.doc, member, (text) => text.delete(0, text.length), 'title');
    edit(writer.doc, member, (text) => text.insert(0, 'More. '));
    await waitFor(
      async () =>
        (await store.getPage('fielded', { draft: true }))?.bodyMarkdown === 'More. Body.\n'
          ? true
          : undefined,
      { what: 'the body to be written while the title is empty' },
    );
    expect((await store.getPage('fielded', { draft: true }))?.title).toBe('A title, retitled');
    expect((await storedFields(a.query, pageId))?.title).toBe('');
  });

  test('a title or summary over its limit is refused (1008) and nothing of it is stored', async () => {
    const [a] = await twoInstances();
    const pageId = await newPage(a, 'limited', 'Body.\n', { title: 'Short' });
    const registry = await registryOn(a);
    const seqOf = async () =>
      Number(
        (
          await a.query<{ seq: number | string }>`
            SELECT seq FROM coedit_documents WHERE page_id = ${pageId}`
        )[0]?.seq,
      );
    for (const [field, limit] of [
      ['title', 200],
      ['summary', 500],
    ] as const) {
      const editor = fakeEditor();
      const member = await joinSynced(registry, pageId, editor);
      const before = await seqOf();
      // Up to the limit is fine (code points, as a save counts: an emoji is one).
      const current = editor.doc.getText(field).length;
      edit(editor.doc, member, (text) => text.insert(0, '😀'.repeat(limit - current)), field);
      await waitFor(() => (editor.state.acks >= 1 ? true : undefined), { what: `${field} full` });
      edit(editor.doc, member, (text) => text.insert(0, 'x'), field);
      await waitFor(() => (editor.state.closed !== null ? true : undefined), {
        what: `the ${field} over its limit to be refused`,
      });
      expect(editor.state.closed).toBe(1008);
      expect(await seqOf()).toBe(before + 1);
      const fields = await storedFields(a.query, pageId);
      expect([...(fields?.[field] ?? '')].length).toBe(limit);
      member.leave();
      // Back to short, for the next field.
      const fixer = fakeEditor();
      const fixing = await joinSynced(registry, pageId, fixer);
      edit(
        fixer.doc,
        fixing,
        (text) => text.delete(0, text.length - (field === 'title' ? 5 : 0)),
        field,
      );
      await waitFor(() => (fixer.state.acks >= 1 ? true : undefined), { what: 'the fix' });
      fixing.leave();
    }
  });

  test('a map, formatting or an embed beside the text fields is refused (1008), unstored', async () => {
    const [a] = await twoInstances();
    const pageId = await newPage(a, 'typed', 'Body.\n');
    const registry = await registryOn(a);
    const attempts: ((doc: Y.Doc) => void)[] = [
      (doc) => doc.getMap('fields').set('x', 'y'),
      (doc) => doc.getText('body').format(0, 2, { bold: true }),
      (doc) => doc.getText('title').insertEmbed(0, { image: 'x' }),
      (doc) => doc.getArray('summary').insert(0, [1]),
    ];
    for (const attempt of attempts) {
      const editor = fakeEditor();
      const member = await joinSynced(registry, pageId, editor);
      const before = await storedText(a.query, pageId);
      const vector = Y.encodeStateVector(editor.doc);
      attempt(editor.doc);
      member.receive(updateMessage(Y.encodeStateAsUpdate(editor.doc, vector)));
      await waitFor(() => (editor.state.closed !== null ? true : undefined), {
        what: 'the refusal',
      });
      expect(editor.state.closed).toBe(1008);
      expect(await storedText(a.query, pageId)).toBe(before);
    }
  });

  test('a document made before title and summary were in it gets them from the page, once', async () => {
    const [a, b] = await twoInstances();
    const pageId = await newPage(a, 'legacy', 'Old body.\n', {
      title: 'Old title',
      summary: 'Old summary.',
    });
    // As the first slice stored it: the body alone, the page's version recorded as written.
    const seed = new Y.Doc();
    seed.getText('body').insert(0, 'Old body.\n');
    const version = (await createContentStore(a).getPageById(pageId))?.version ?? 0;
    const at = new Date().toISOString();
    await a.query`INSERT INTO coedit_documents (page_id, seq, snapshot_seq, written_version, created_at)
                  VALUES (${pageId}, 1, 0, ${version}, ${at})`;
    await a.query`INSERT INTO coedit_updates (page_id, seq, data, created_at, created_by)
                  VALUES (${pageId}, 1, ${Y.encodeStateAsUpdate(seed)}, ${at}, NULL)`;
    const [ra, rb] = await Promise.all([registryOn(a), registryOn(b)]);
    const one = fakeEditor();
    const two = fakeEditor();
    await Promise.all([joinSynced(ra, pageId, one), joinSynced(rb, pageId, two)]);
    expect(await storedFields(a.query, pageId)).toEqual({
      title: 'Old title',
      summary: 'Old summary.',
      body: 'Old body.\n',
    });
    await waitFor(
      () =>
        [one, two].every((editor) => editor.doc.getText('title').toString() === 'Old title')
          ? true
          : undefined,
      { what: 'both editors to have the title once' },
    );
  });

  test('a title and summary saved by the form while the document is open reach its editors', async () => {
    const [a] = await twoInstances();
    const pageId = await newPage(a, 'form-titled', 'Body.\n', { title: 'Before' });
    const registry = await registryOn(a);
    const editor = fakeEditor();
    const member = await joinSynced(registry, pageId, editor);
    edit(editor.doc, member, (text) => text.insert(0, 'Live. '));
    const store = createContentStore(a);
    await waitFor(
      async () =>
        (await store.getPage('form-titled', { draft: true }))?.bodyMarkdown === 'Live. Body.\n'
          ? true
          : undefined,
      { what: 'the live edit to be the draft' },
    );
    const page = await store.getPage('form-titled', { draft: true });
    await store.saveDraft({
      slug: 'form-titled',
      pageId,
      title: 'After, from the form',
      summary: 'Summed up by the form.',
      body: 'Live. Body.\n',
      expectedVersion: page?.version ?? 0,
      editor: null,
    });
    await waitFor(
      () =>
        editor.doc.getText('title').toString() === 'After, from the form' &&
        editor.doc.getText('summary').toString() === 'Summed up by the form.'
          ? true
          : undefined,
      { what: () => `the form's title to reach the editor: ${editor.doc.getText('title')}` },
    );
    expect(await storedFields(a.query, pageId)).toEqual({
      title: 'After, from the form',
      summary: 'Summed up by the form.',
      body: 'Live. Body.\n',
    });
  });
});

describe(`co-editing: told of a change from outside the document (${TEST_ENGINE})`, () => {
  /** A connection that keeps the notices it is told (Folio's message 7). */
  function noticeListener(editor: Editor = EDITOR) {
    const notices: DraftNotice[] = [];
    const doc = new Y.Doc();
    const connection: Connection = {
      editor,
      send(message) {
        const decoder = decoding.createDecoder(message);
        const kind = decoding.readVarUint(decoder);
        if (kind === MESSAGE_NOTICE) {
          const notice = parseNotice(decoding.readVarString(decoder));
          if (notice) notices.push(notice);
        }
        if (kind !== 0) return;
        const step = decoding.readVarUint(decoder);
        const payload = decoding.readVarUint8Array(decoder);
        if (step !== 0) Y.applyUpdate(doc, payload, 'server');
      },
      close() {},
    };
    return { notices, doc, connection };
  }

  test('a Discard draft by someone else is taken in and every live editor, on every instance, is told who discarded it', async () => {
    const [a, b] = await twoInstances();
    const store = createContentStore(a);
    await store.putPage(
      { slug: 'told', title: 'Told', summary: '', body: 'Published text.\n' },
      { publish: true },
    );
    const pageId = (await store.getPage('told', { draft: true }))?.id ?? 0;
    const first = await registryOn(a);
    // On SQLite one process serves the site: one registry. On PostgreSQL the other instance's
    // editor must hear it too (the notice crosses on the awareness channel).
    const second = a.engine === 'postgres' ? await registryOn(b) : first;
    const writer = fakeEditor();
    const member = await joinSynced(first, pageId, writer);
    const here = noticeListener();
    const there = noticeListener({ id: 2, email: 'Ann@Example.com', role: 'editor' });
    await first.join(pageId, here.connection);
    await second.join(pageId, there.connection);
    edit(writer.doc, member, (text) => text.insert(0, 'A draft line.\n'));
    await waitFor(
      async () =>
        (await store.getPage('told', { draft: true }))?.bodyMarkdown ===
        'A draft line.\nPublished text.\n'
          ? true
          : undefined,
      { what: 'the live edit to be the draft' },
    );
    await store.discardDraft('told', { editor: 'ann@example.com' });
    await waitFor(
      () => (writer.doc.getText('body').toString() === 'Published text.\n' ? true : undefined),
      {
        what: () => `the discard to reach the editor: ${writer.doc.getText('body')}`,
      },
    );
    for (const listener of [here, there])
      await waitFor(() => (listener.notices.length > 0 ? true : undefined), {
        what: 'the notice',
      });
    // By her name where an instance has her on the page, else her e-mail (here, the same).
    expect(
      here.notices.map(({ change, by, byKey }) => ({ change, by: by?.toLowerCase(), byKey })),
    ).toEqual([{ change: 'discarded', by: 'ann@example.com', byKey: 'ann@example.com' }]);
    expect(there.notices).toHaveLength(1);
    expect(there.notices[0]?.change).toBe('discarded');
  });

  test('a change from outside that leaves the document as it is says nothing', async () => {
    const [a] = await twoInstances();
    const pageId = await newPage(a, 'quiet', 'Same.\n');
    const registry = await registryOn(a);
    const here = noticeListener();
    const writer = fakeEditor();
    const member = await joinSynced(registry, pageId, writer);
    await registry.join(pageId, here.connection);
    const store = createContentStore(a);
    // The page published as it is: its draft's text does not change.
    const page = await store.getPage('quiet', { draft: true });
    await store.publish('quiet', { editor: 'ann@example.com', version: page?.version });
    edit(writer.doc, member, (text) => text.insert(0, 'Later. '));
    await waitFor(
      async () =>
        (await store.getPage('quiet', { draft: true }))?.bodyMarkdown === 'Later. Same.\n'
          ? true
          : undefined,
      { what: 'the live edit to be the draft after the publish' },
    );
    expect(here.notices).toEqual([]);
  });
});

describe(`co-editing: a discard or restore made on this instance (${TEST_ENGINE})`, () => {
  /** A registry whose drafts wait a minute: only a flush writes them in the test's time. */
  async function slowRegistry(db: Database) {
    return registryOn(db, { ...FAST, draftDelayMs: 60_000 });
  }

  function noticesOf(editor: ReturnType<typeof fakeEditor>) {
    const notices: DraftNotice[] = [];
    const send = editor.connection.send.bind(editor.connection);
    editor.connection.send = (message) => {
      const decoder = decoding.createDecoder(message);
      if (decoding.readVarUint(decoder) === MESSAGE_NOTICE) {
        const notice = parseNotice(decoding.readVarString(decoder));
        if (notice) notices.push(notice);
      }
      send(message);
    };
    return notices;
  }

  test('the typing is written as the draft first, then the discard is taken as it is: the published text, each paragraph once', async () => {
    const [a] = await twoInstances();
    const store = createContentStore(a);
    await store.putPage(
      { slug: 'flushed', title: 'Flushed', summary: '', body: 'One.\n\nTwo.\n' },
      { publish: true },
    );
    const pageId = (await store.getPage('flushed', { draft: true }))?.id ?? 0;
    const registry = await slowRegistry(a);
    const writer = fakeEditor();
    const notices = noticesOf(writer);
    const member = await joinSynced(registry, pageId, writer);
    // The first paragraph edited, and not yet written as the draft (a minute to go).
    edit(writer.doc, member, (text) => text.insert(4, ' Edited.'));
    await waitFor(() => (writer.state.acks > 0 ? true : undefined), { what: 'the ack' });
    await draftsWrittenHere(pageId);
    expect((await store.getPage('flushed', { draft: true }))?.bodyMarkdown).toBe(
      'One. Edited.\n\nTwo.\n',
    );
    await store.discardDraft('flushed', { editor: 'ann@example.com' });
    textChangedHere(pageId);
    await waitFor(() => (notices.length > 0 ? true : undefined), { what: 'the notice' });
    expect(writer.doc.getText('body').toString()).toBe('One.\n\nTwo.\n');
    expect(notices[0]).toMatchObject({ change: 'discarded', byKey: 'ann@example.com' });
    expect(notices[0]?.kept).toBeUndefined();
    // The discarded draft is in the history, listed.
    const listed = await store.listCheckpoints(pageId);
    const bodies = await Promise.all(
      listed.map(async (c) => (await store.getCheckpoint(pageId, c.id))?.body),
    );
    expect(bodies).toContain('One. Edited.\n\nTwo.\n');
  });

  test('a discard that meets typing its draft did not hold keeps that typing, and says so', async () => {
    const [a] = await twoInstances();
    const store = createContentStore(a);
    await store.putPage(
      { slug: 'unflushed', title: 'Unflushed', summary: '', body: 'One.\n' },
      { publish: true },
    );
    const pageId = (await store.getPage('unflushed', { draft: true }))?.id ?? 0;
    const registry = await slowRegistry(a);
    const writer = fakeEditor();
    const notices = noticesOf(writer);
    const member = await joinSynced(registry, pageId, writer);
    edit(writer.doc, member, (text) => text.insert(4, '\n\nTyped, not yet a draft.'));
    await waitFor(() => (writer.state.acks > 0 ? true : undefined), { what: 'the ack' });
    // Another path (not this instance's action): nothing written first.
    const page = await store.getPage('unflushed', { draft: true });
    await store.saveDraft({
      slug: 'unflushed',
      pageId,
      title: 'Unflushed',
      summary: '',
      body: 'One. A draft by the form.\n',
      expectedVersion: page?.version ?? 0,
      editor: 'ann@example.com',
    });
    await store.discardDraft('unflushed', { editor: 'ann@example.com' });
    textChangedHere(pageId);
    // On a busy machine the poll (100 ms here) may take the form's save first, and say so.
    const discarded = await waitFor(() => notices.find((notice) => notice.change === 'discarded'), {
      what: 'the discard’s notice',
    });
    expect(writer.doc.getText('body').toString()).toContain('Typed, not yet a draft.');
    expect(discarded).toMatchObject({ change: 'discarded', kept: true });
    expect(
      notices.every((notice) => notice.change === 'discarded' || notice.change === 'saved'),
    ).toBe(true);
  });
});

describe(`co-editing: a document whose history outgrew its text (${TEST_ENGINE})`, () => {
  /**
   * One-character inserts and deletions scattered over the body, 8 000 to an update (some
   * 100 KB, under the update limit), until the editor's state passes `bytes`: each leaves a
   * marker Yjs keeps, while the text stays about as long. Says the text as of the last update
   * acknowledged (one sent as the connection was let go stays the client's to send again).
   */
  async function scatterUntil(
    editor: ReturnType<typeof fakeEditor>,
    member: Member,
    bytes: number,
  ) {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    let sent = editor.state.acks;
    let acknowledged = editor.doc.getText('body').toString();
    while (Y.encodeStateAsUpdate(editor.doc).byteLength <= bytes) {
      edit(editor.doc, member, (text) =>
        editor.doc.transact(() => {
          for (let i = 0; i < 8000; i += 1) {
            const at = Math.floor(random() * text.length);
            if (random() < 0.5) text.insert(at, 'a');
            else text.delete(at, 1);
          }
        }),
      );
      sent += 1;
      await waitFor(() => (editor.state.acks >= sent || editor.state.closed ? true : undefined), {
        timeoutMs: 30_000,
        what: () => `update ${sent} acknowledged (${editor.state.acks})`,
      });
      if (editor.state.acks < sent) return acknowledged;
      acknowledged = editor.doc.getText('body').toString();
      if (editor.state.closed) return acknowledged;
    }
    return acknowledged;
  }

  async function rowOf(db: Database, pageId: number) {
    const [row] = await db.query<{ created_at: string; seq: number | string }>`
      SELECT created_at, seq FROM coedit_documents WHERE page_id = ${pageId}`;
    return row ? { createdAt: String(row.created_at), seq: Number(row.seq) } : null;
  }

  test('unloaded past its bound, a document is made again from its text: the same text and draft, a fraction of the bytes, another identity', async () => {
    const [a] = await twoInstances();
    const pageId = await newPage(a, 'outgrown', 'x'.repeat(20_000));
    const registry = await registryOn(a);
    const writer = fakeEditor();
    const member = await joinSynced(registry, pageId, writer);
    await scatterUntil(writer, member, COEDIT_LIMITS.documentBytes + 100_000);
    const grown = Y.encodeStateAsUpdate(writer.doc).byteLength;
    const text = writer.doc.getText('body').toString();
    const before = await rowOf(a, pageId);
    member.leave();
    await waitFor(
      async () => {
        const row = await rowOf(a, pageId);
        return row && row.createdAt !== before?.createdAt ? row : undefined;
      },
      { timeoutMs: 20_000, what: 'the document made again' },
    );
    // One update: the text with no history behind it.
    const updates = await a.query<{ data: Uint8Array }>`
      SELECT data FROM coedit_updates WHERE page_id = ${pageId}`;
    expect(updates).toHaveLength(1);
    expect(updates[0]?.data.byteLength ?? grown).toBeLessThan(text.length + 1_000);
    expect(grown).toBeGreaterThan(COEDIT_LIMITS.documentBytes);
    expect(await storedText(a.query, pageId)).toBe(text);
    const page = await createContentStore(a).getPage('outgrown', { draft: true });
    expect(page?.bodyMarkdown).toBe(text);
    // The next editor is told another identity (a browser drops its copy of the old one), and
    // has the text.
    const next = identityListener();
    await registry.join(pageId, next.connection);
    const again = fakeEditor();
    await joinSynced(registry, pageId, again);
    expect(again.doc.getText('body').toString()).toBe(text);
    expect(next.heard.identities[0]).not.toBe(documentIdentity(pageId, before?.createdAt ?? ''));
  });

  test('a document with little history keeps its identity when unloaded', async () => {
    const [a] = await twoInstances();
    const pageId = await newPage(a, 'kept-identity', 'Short.');
    const registry = await registryOn(a);
    const writer = fakeEditor();
    const member = await joinSynced(registry, pageId, writer);
    edit(writer.doc, member, (text) => text.insert(0, 'Still '));
    await waitFor(() => (writer.state.acks >= 1 ? true : undefined), { what: 'the ack' });
    const before = await rowOf(a, pageId);
    member.leave();
    await waitFor(() => (registry.stats().documents === 0 ? true : undefined), {
      what: 'the document unloaded',
    });
    expect(await rowOf(a, pageId)).toEqual(before);
  });

  test('open past the hard bound: written as the draft, made again, its editors let go to be told so; nothing typed lost', async () => {
    const [a] = await twoInstances();
    const pageId = await newPage(a, 'bounded', 'x'.repeat(20_000));
    const registry = await registryOn(a, { ...FAST, documentMaxBytes: 400_000 });
    const writer = fakeEditor();
    const reader = fakeEditor();
    const member = await joinSynced(registry, pageId, writer);
    await joinSynced(registry, pageId, reader);
    const before = await rowOf(a, pageId);
    const text = await scatterUntil(writer, member, 2_000_000);
    // Let go to come back (1013): what was acknowledged is stored, written as the draft.
    await waitFor(() => (writer.state.closed !== null ? true : undefined), {
      what: 'the writer let go',
    });
    expect(writer.state.closed).toBe(1013);
    expect(reader.state.closed).toBe(1013);
    const after = await rowOf(a, pageId);
    expect(after?.createdAt).not.toBe(before?.createdAt);
    expect(await storedText(a.query, pageId)).toBe(text);
    const page = await createContentStore(a).getPage('bounded', { draft: true });
    expect(page?.bodyMarkdown).toBe(text);
  });

  test('an update meant for the document before it was made again is not stored in the new one', async () => {
    const [a] = await twoInstances();
    const pageId = await newPage(a, 'afresh-race', 'Text.');
    const registry = await registryOn(a);
    const writer = fakeEditor();
    await joinSynced(registry, pageId, writer);
    const old = await rowOf(a, pageId);
    if (!old) throw new Error('no document');
    // Another instance makes it again meanwhile.
    const fresh = new Y.Doc();
    fresh.getText('body').insert(0, 'Text.');
    const made = await startAfresh(a, pageId, old, Y.encodeStateAsUpdate(fresh), new Date());
    expect(made).not.toBeNull();
    // This instance's writes, for the old row, find it gone.
    expect(
      await appendUpdate(a, pageId, old.createdAt, new Uint8Array([0, 0]), null, ''),
    ).toBeNull();
    expect(
      await appendIfAt(a, pageId, { seq: 1, createdAt: old.createdAt }, new Uint8Array([0, 0]), ''),
    ).toBeNull();
    // And a second try from the same reading is refused: it is not the same row any more.
    expect(await startAfresh(a, pageId, old, Y.encodeStateAsUpdate(fresh), new Date())).toBeNull();
    expect(await storedText(a.query, pageId)).toBe('Text.');
  });
});
