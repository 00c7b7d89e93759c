import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { expectConsoleErrors } from '../../../tests/console-guard';
import { openTestDatabase, TEST_ENGINE } from '../../../tests/databases';
import { openDatabase } from '../data/db';
import {
  type ContentEvent,
  type ContentStore,
  createContentStore,
  isContentError,
  settingsVersion,
} from './content';

// Every test here runs on the run's engine (FOLIO_TEST_ENGINE): SQLite or PostgreSQL.
let db: Awaited<ReturnType<typeof openTestDatabase>>;
let clock: Date;
let store: ContentStore;

beforeEach(async () => {
  db = await openTestDatabase();
  clock = new Date('2026-06-01T10:00:00Z');
  store = createContentStore(db, () => clock);
});

afterEach(async () => {
  await db.dispose();
});

type Row = {
  id: number;
  type: string;
  page_id: number | null;
  slug: string | null;
  payload: string;
  editor: string | null;
  dispatched_at: string | null;
};

async function events(): Promise<Row[]> {
  const rows = await db.query<Row>`
    SELECT id, type, page_id, slug, payload, editor, dispatched_at FROM events ORDER BY id`;
  return rows.map((row) => ({
    ...row,
    id: Number(row.id),
    page_id: row.page_id === null ? null : Number(row.page_id),
  }));
}

/** The events `change` wrote (and only those): what it made, in order. */
async function eventsOf(change: () => Promise<unknown>) {
  const before = (await events()).length;
  await change();
  return (await events()).slice(before).map((row) => ({
    type: row.type,
    pageId: row.page_id,
    slug: row.slug,
    payload: JSON.parse(row.payload) as Record<string, unknown>,
    editor: row.editor,
  }));
}

const page = (slug: string, body = 'Text.') => ({ slug, title: slug, summary: '', body });
const idOf = async (slug: string) => (await store.getPage(slug, { draft: true }))?.id ?? -1;

describe('each change writes one event in its transaction', () => {
  test('publish, unpublish, rename, delete and settings', async () => {
    await store.putPage(page('about'));
    const id = await idOf('about');
    const [published] = await eventsOf(() => store.publish('about', { editor: 'ed' }));
    expect(published).toMatchObject({
      type: 'page.published',
      pageId: id,
      slug: 'about',
      editor: 'ed',
    });
    const revisions = await store.listRevisions(id);
    expect(published?.payload).toEqual({ revisionId: revisions[0]?.id, version: 2 });
    // Publishing with nothing new changes nothing: no event.
    expect(await eventsOf(() => store.publish('about'))).toEqual([]);

    expect(await eventsOf(() => store.renameSlug('about', 'about-us'))).toEqual([
      {
        type: 'page.renamed',
        pageId: id,
        slug: 'about-us',
        payload: { from: 'about', to: 'about-us' },
        editor: null,
      },
    ]);
    expect(await eventsOf(() => store.unpublish('about-us', { editor: 'ed' }))).toEqual([
      {
        type: 'page.unpublished',
        pageId: id,
        slug: 'about-us',
        payload: { revisionId: revisions[0]?.id },
        editor: 'ed',
      },
    ]);
    // Unpublishing a page that is not published changes nothing.
    expect(await eventsOf(() => store.unpublish('about-us'))).toEqual([]);
    // Discarding the draft of a published page: visitors see no change, no event.
    await store.putPage(page('kept'), { publish: true });
    await store.putPage(page('kept', 'Newer.'));
    expect(await eventsOf(() => store.discardDraft('kept', { editor: 'ed' }))).toEqual([]);
    // A page not published (never, or no longer) goes with its draft: deleted.
    expect(await eventsOf(() => store.discardDraft('about-us', { editor: 'ed' }))).toEqual([
      {
        type: 'page.deleted',
        pageId: id,
        slug: 'about-us',
        payload: { via: 'discard' },
        editor: 'ed',
      },
    ]);

    const settings = { title: 'Site', tagline: 'T', footer: 'F', navigation: [id] };
    expect(await eventsOf(() => store.saveSiteSettings(settings, { editor: 'ed' }))).toEqual([
      {
        type: 'settings.changed',
        pageId: null,
        slug: null,
        // The whole settings as saved: what the save left out keeps its (default) value.
        payload: {
          ...settings,
          // Menus are entries (migration 20): a bare id is that page under its title.
          navigation: [{ page: id }],
          footerMenu: [],
          language: 'en',
          accent: '#1f5fbf',
          socialImage: null,
          favicon: null,
          homeShows: 'page',
        },
        editor: 'ed',
      },
    ]);
    // Settings saved as they are change nothing visitors see: no event (hostile review:
    // every no-op save of the settings form wrote one).
    expect(await eventsOf(() => store.saveSiteSettings(settings, { editor: 'ed' }))).toEqual([]);
    // A draft saved is no event: nothing visitors see changed.
    expect(await eventsOf(() => store.putPage(page('draft-only')))).toEqual([]);
  });

  test('a save that renames and publishes is two changes, in the order they happened', async () => {
    await store.putPage(page('old-name'), { publish: true });
    const id = await idOf('old-name');
    const version = (await store.getPage('old-name', { draft: true }))?.version ?? 0;
    const written = await eventsOf(() =>
      store.saveDraft(
        { ...page('new-name', 'New.'), pageId: id, expectedVersion: version, editor: 'ed' },
        { publish: true },
      ),
    );
    expect(written.map((event) => [event.type, event.slug, event.editor])).toEqual([
      ['page.renamed', 'new-name', 'ed'],
      ['page.published', 'new-name', 'ed'],
    ]);
  });

  test('schedule outcomes: published, and missed (its claim commits with its event)', async () => {
    await store.putPage(page('later'));
    const id = await idOf('later');
    await store.schedulePublish('later', new Date('2026-06-01T11:00:00Z'), { editor: 'ed' });
    clock = new Date('2026-06-01T11:00:05Z');
    const [done, ...more] = await eventsOf(() => store.publishDue());
    expect(more).toEqual([]);
    expect(done).toMatchObject({
      type: 'page.scheduled_publish_done',
      pageId: id,
      slug: 'later',
      editor: 'ed',
    });
    expect(done?.payload).toMatchObject({ due: '2026-06-01T11:00:00.000Z', version: 2 });
    expect(done?.payload.revisionId).toBe((await store.listRevisions(id))[0]?.id);

    const typo = 'f'.repeat(32);
    await store.putPage(page('later', 'Fine.'));
    await store.schedulePublish('later', new Date('2026-06-01T12:00:00Z'), { editor: 'ed' });
    await store.putPage(page('later', `![x](/media/${typo})`));
    clock = new Date('2026-06-01T12:00:05Z');
    const [missed, ...others] = await eventsOf(() => store.publishDue());
    expect(others).toEqual([]);
    expect(missed).toMatchObject({
      type: 'page.scheduled_publish_missed',
      pageId: id,
      slug: 'later',
      editor: 'ed',
    });
    expect(missed?.payload.due).toBe('2026-06-01T12:00:00.000Z');
    expect(String(missed?.payload.reason)).toContain(`/media/${typo}`);
    // Nothing is due any more: no event.
    expect(await eventsOf(() => store.publishDue())).toEqual([]);
  });

  test('a refused or rolled-back change writes none', async () => {
    await store.putPage(page('taken'), { publish: true });
    await store.putPage(page('mine'), { publish: true });
    const id = await idOf('mine');
    const version = (await store.getPage('mine', { draft: true }))?.version ?? 0;
    const refusals: (() => Promise<unknown>)[] = [
      () => store.renameSlug('mine', 'taken'),
      () => store.renameSlug('mine', 'preview'),
      () => store.publish('mine', { version: version - 1 }),
      () => store.unpublish('mine', { pageId: id + 100 }),
      () => store.discardDraft('nowhere'),
      () => store.saveSiteSettings({ title: '', tagline: '', footer: '', navigation: null }),
      // The rename is written first, then the publish refuses (an image the library lacks):
      // the transaction rolls back whole, its rename event with it.
      () =>
        store.saveDraft(
          {
            ...page('mine-renamed', `![x](/media/${'a'.repeat(32)})`),
            pageId: id,
            expectedVersion: version,
            editor: 'ed',
          },
          { publish: true },
        ),
    ];
    for (const refusal of refusals)
      expect(await eventsOf(() => refusal().catch(() => undefined))).toEqual([]);
    expect(await store.getPage('mine', { draft: false })).not.toBeNull();
    expect(await store.getPage('mine-renamed', { draft: true })).toBeNull();
  });
});

describe('site settings', () => {
  test('a save made from settings changed since is refused, and changes nothing', async () => {
    const opened = await store.getSiteSettings();
    const version = settingsVersion(opened);
    // Tab A saves a tagline from the form it opened…
    expect(await store.saveSiteSettings({ ...opened, tagline: 'From A' }, { version })).toBe(true);
    // …then tab B, opened before it, saves a footer: refused, A's tagline stays.
    const refused = await store
      .saveSiteSettings({ ...opened, footer: 'From B' }, { version })
      .catch((error: unknown) => error);
    expect(isContentError(refused) && refused.code).toBe('conflict');
    expect(await store.getSiteSettings()).toEqual({ ...opened, tagline: 'From A' });
    // Made from the settings as they are now, B's save goes through.
    const now = settingsVersion(await store.getSiteSettings());
    expect(
      await store.saveSiteSettings(
        { ...opened, tagline: 'From A', footer: 'From B' },
        { version: now },
      ),
    ).toBe(true);
  });
});

describe('the dispatcher', () => {
  test('delivers in order, once, and marks each dispatched', async () => {
    for (const slug of ['one', 'two', 'three']) await store.putPage(page(slug), { publish: true });
    const got: ContentEvent[] = [];
    const unsubscribe = store.subscribeToEvents((event) => {
      got.push(event);
    });
    expect(await store.dispatchEvents()).toBe(3);
    expect(got.map((event) => [event.type, event.slug])).toEqual([
      ['page.published', 'one'],
      ['page.published', 'two'],
      ['page.published', 'three'],
    ]);
    expect(got.map((event) => event.id)).toEqual(
      [...got.map((event) => event.id)].sort((x, y) => x - y),
    );
    expect(got[0]?.createdAt).toBe('2026-06-01T10:00:00.000Z');
    expect((await events()).every((row) => row.dispatched_at !== null)).toBe(true);
    expect(await store.dispatchEvents()).toBe(0);
    expect(got).toHaveLength(3);

    unsubscribe();
    await store.renameSlug('one', 'uno');
    expect(await store.dispatchEvents()).toBe(1);
    expect(got).toHaveLength(3);
  });

  test('a subscriber that throws leaves the event (and those after it) for the next round', async () => {
    for (const slug of ['one', 'two', 'three']) await store.putPage(page(slug), { publish: true });
    const got: string[] = [];
    let failures = 1;
    store.subscribeToEvents((event) => {
      if (event.slug === 'two' && failures > 0) {
        failures -= 1;
        throw new Error('subscriber down');
      }
      got.push(event.slug ?? '');
    });
    const logged = expectConsoleErrors();
    expect(await store.dispatchEvents()).toBe(1);
    expect(got).toEqual(['one']);
    // Said in the log, never thrown at the loop that runs the round.
    expect(logged.lines().join('\n')).toContain('"reason":"subscriber down"');
    expect((await events()).map((row) => row.dispatched_at !== null)).toEqual([true, false, false]);
    // The next round starts where the last one stopped: at least once, in order.
    expect(await store.dispatchEvents()).toBe(2);
    expect(got).toEqual(['one', 'two', 'three']);
    expect(await store.dispatchEvents()).toBe(0);
  });

  test.skipIf(TEST_ENGINE !== 'postgres')(
    'two instances dispatching at once deliver each event once (PostgreSQL)',
    async () => {
      for (let n = 0; n < 12; n += 1) await store.putPage(page(`page-${n}`), { publish: true });
      // A second instance: its own connections to the same database.
      const other = await openDatabase(db.url, { poolSize: 3 });
      try {
        const delivered: number[] = [];
        const slowly = async (event: ContentEvent) => {
          await Bun.sleep(5);
          delivered.push(event.id);
        };
        const a = createContentStore(db);
        const b = createContentStore(other);
        a.subscribeToEvents(slowly);
        b.subscribeToEvents(slowly);
        const rounds = await Promise.all([
          a.dispatchEvents(5),
          b.dispatchEvents(5),
          a.dispatchEvents(5),
          b.dispatchEvents(5),
        ]);
        const more = (await a.dispatchEvents()) + (await b.dispatchEvents());
        expect(rounds.reduce((sum, n) => sum + n, 0) + more).toBe(12);
        expect(delivered).toHaveLength(12);
        expect(new Set(delivered).size).toBe(12);
        // Both instances took some while the other held its own.
        expect(rounds[0]).toBeGreaterThan(0);
        expect(rounds[1]).toBeGreaterThan(0);
      } finally {
        await other.close();
      }
    },
  );
});
