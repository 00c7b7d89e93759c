import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { openTestDatabase } from '../../../tests/databases';
import { contentVersionOf } from '../data/content-version';
import { COALESCE_MINUTES } from './checkpoint-policy';
import { type ContentStore, createContentStore } from './content';

// The history of every save on the run's engine (FOLIO_TEST_ENGINE): SQLite or PostgreSQL.
let db: Awaited<ReturnType<typeof openTestDatabase>>;
let store: ContentStore;
let clock = new Date('2026-11-26T10:00:00Z');
const later = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

beforeEach(async () => {
  clock = new Date('2026-11-26T10:00:00Z');
  db = await openTestDatabase();
  store = createContentStore(db, () => clock);
});

afterEach(async () => {
  await db.dispose();
});

const A = 'a@example.com';
const B = 'b@example.com';

async function save(
  pageId: number | undefined,
  version: number | null,
  body: string,
  editor = A,
  checkpoint: 'autosave' | 'save' = 'autosave',
) {
  const result = await store.saveDraft({
    slug: 'history-page',
    ...(pageId === undefined ? {} : { pageId }),
    title: 'History page',
    summary: '',
    body,
    expectedVersion: version,
    editor,
    checkpoint,
  });
  if (!result.ok) throw new Error('conflict');
  return result;
}

describe('checkpoints', () => {
  test('thirty saves by one editor a few seconds apart are one checkpoint; another editor, or the window past, starts one', async () => {
    let saved = await save(undefined, null, 'Save 0');
    for (let i = 1; i < 30; i += 1) {
      later(5_000);
      saved = await save(
        saved.pageId,
        saved.version,
        `Save ${i}`,
        A,
        i % 7 === 0 ? 'save' : 'autosave',
      );
    }
    let listed = await store.listCheckpoints(saved.pageId);
    expect(listed).toHaveLength(1);
    expect(listed[0]?.saves).toBe(30);
    expect(listed[0]?.version).toBe(saved.version);
    // A manual save in the run makes it a save.
    expect(listed[0]?.kind).toBe('save');
    later(1_000);
    saved = await save(saved.pageId, saved.version, 'By B', B);
    later(COALESCE_MINUTES * 60_000);
    saved = await save(saved.pageId, saved.version, 'By B, later', B);
    listed = await store.listCheckpoints(saved.pageId);
    expect(listed.map((c) => [c.savedBy, c.saves])).toEqual([
      [B, 1],
      [B, 1],
      [A, 30],
    ]);
    // Coalesced saves are still there as merge bases (a tab that saved "Save 24" merges with
    // it), the newest HIDDEN_MAX of them.
    expect((await store.textAtVersion(saved.pageId, 25))?.body).toBe('Save 24');
    expect(await store.textAtVersion(saved.pageId, 4)).toBeNull();
    const text = await store.getCheckpoint(saved.pageId, listed[2]?.id ?? 0);
    expect(text?.body).toBe('Save 29');
  });

  test('saves are drafts: visitors see nothing new, the content version stays', async () => {
    await store.putPage(
      { slug: 'history-page', title: 'P', summary: '', body: 'live' },
      { publish: true },
    );
    const page = await store.getPage('history-page', { draft: true });
    const version = contentVersionOf(db);
    await version.follow();
    const before = version.current();
    await save(page?.id, page?.version ?? 0, 'draft text');
    expect(version.current()).toBe(before);
    expect((await store.getPage('history-page', { draft: false }))?.bodyMarkdown).toBe('live');
    await version.stop();
  });

  test('restoring a checkpoint makes it the draft; the draft it replaces stays a checkpoint', async () => {
    let saved = await save(undefined, null, 'First text');
    later(COALESCE_MINUTES * 60_000 + 1);
    saved = await save(saved.pageId, saved.version, 'Second text');
    const [second, first] = await store.listCheckpoints(saved.pageId);
    // A stale restore changes nothing.
    const stale = await store.restoreCheckpoint({
      pageId: saved.pageId,
      checkpointId: first?.id ?? 0,
      expectedVersion: saved.version - 1,
      editor: A,
    });
    expect(stale.ok).toBe(false);
    const restored = await store.restoreCheckpoint({
      pageId: saved.pageId,
      checkpointId: first?.id ?? 0,
      expectedVersion: saved.version,
      editor: A,
    });
    expect(restored.ok).toBe(true);
    const page = await store.getPageById(saved.pageId);
    expect(page?.bodyMarkdown).toBe('First text');
    expect(page?.lastChange).toBe('restored');
    const listed = await store.listCheckpoints(saved.pageId);
    expect(listed.map((c) => c.kind)).toEqual(['restore', 'autosave', 'autosave']);
    expect(listed[1]?.id).toBe(second?.id);
    expect((await store.getCheckpoint(saved.pageId, second?.id ?? 0))?.body).toBe('Second text');
  });

  test('restoring a publish keeps the draft it replaces, even one saved before history was kept', async () => {
    await store.putPage(
      { slug: 'history-page', title: 'P', summary: '', body: 'published' },
      { publish: true },
    );
    // The CLI keeps no checkpoint: this draft is in no history yet.
    await store.putPage({ slug: 'history-page', title: 'P', summary: '', body: 'cli draft' });
    const page = await store.getPage('history-page', { draft: true });
    const [revision] = await store.listRevisions(page?.id ?? 0);
    await store.restoreRevision({
      pageId: page?.id ?? 0,
      revisionId: revision?.id ?? 0,
      expectedVersion: page?.version ?? 0,
      editor: A,
    });
    const listed = await store.listCheckpoints(page?.id ?? 0);
    expect(listed.map((c) => c.kind)).toEqual(['restore', 'save']);
    expect((await store.getCheckpoint(page?.id ?? 0, listed[1]?.id ?? 0))?.body).toBe('cli draft');
  });

  test('a publish, unpublish or discard keeps the text at its version as a hidden merge base', async () => {
    let saved = await save(undefined, null, 'To publish');
    await store.publish('history-page', { editor: B });
    const published = await store.getPageById(saved.pageId);
    expect((await store.textAtVersion(saved.pageId, published?.version ?? 0))?.body).toBe(
      'To publish',
    );
    saved = await save(saved.pageId, published?.version ?? 0, 'A draft over it');
    await store.discardDraft('history-page', { editor: B });
    const discarded = await store.getPageById(saved.pageId);
    expect((await store.textAtVersion(saved.pageId, discarded?.version ?? 0))?.body).toBe(
      'To publish',
    );
    // Hidden: the history lists saves, not these. The two by A, minutes apart, are two entries:
    // a publish came between them.
    expect((await store.listCheckpoints(saved.pageId)).map((c) => [c.kind, c.saves])).toEqual([
      ['autosave', 1],
      ['autosave', 1],
    ]);
  });

  test('a discarded draft stays an entry of its own: the same editor’s next save does not fold it in (hostile pass)', async () => {
    let saved = await save(undefined, null, 'Published text');
    await store.publish('history-page', { editor: A });
    const published = await store.getPageById(saved.pageId);
    saved = await save(saved.pageId, published?.version ?? 0, 'The draft to discard');
    await store.discardDraft('history-page', { editor: B });
    const discarded = await store.getPageById(saved.pageId);
    // A goes on typing within the five minutes a run of saves is one entry.
    later(60_000);
    saved = await save(saved.pageId, discarded?.version ?? 0, 'Typed after the discard');
    const listed = await store.listCheckpoints(saved.pageId);
    const bodies = await Promise.all(
      listed.map(async (c) => (await store.getCheckpoint(saved.pageId, c.id))?.body),
    );
    expect(bodies).toEqual(['Typed after the discard', 'The draft to discard', 'Published text']);
  });

  test('old checkpoints are pruned as saves go on: hourly after a day, daily after a week', async () => {
    let saved = await save(undefined, null, 'v0');
    // Four saves an hour apart, then eight days on: the day-old ones thin out to one a day.
    for (let i = 1; i <= 4; i += 1) {
      later(20 * 60_000);
      saved = await save(saved.pageId, saved.version, `v${i}`, i % 2 === 0 ? A : B);
    }
    expect(await store.listCheckpoints(saved.pageId)).toHaveLength(5);
    later(8 * 24 * 3_600_000);
    saved = await save(saved.pageId, saved.version, 'now');
    const listed = await store.listCheckpoints(saved.pageId);
    // The five from one morning, over a week old, are one (the newest), beside today's.
    expect(listed.map((c) => c.kind)).toHaveLength(2);
    expect((await store.getCheckpoint(saved.pageId, listed[1]?.id ?? 0))?.body).toBe('v4');
  });
});
