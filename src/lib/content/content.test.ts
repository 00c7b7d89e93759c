import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import path from 'node:path';
import sharp from 'sharp';
import { createThrowAwayDatabase, openTestDatabase, TEST_ENGINE } from '../../../tests/databases';
import { contentVersionOf } from '../data/content-version';
import { type Database, migrate, openDatabase } from '../data/db';
import { migrations } from '../data/migrations';
import { createMediaStore, processImage } from '../media/media';
import { BUSY_MESSAGE, ContentError, type ContentStore, createContentStore } from './content';
import { SEED_DRAFT_MARKERS, seedDemoContent } from './seed';

// Every test here runs on the run's engine (FOLIO_TEST_ENGINE): SQLite or PostgreSQL.
let db: Awaited<ReturnType<typeof openTestDatabase>>;
let store: ContentStore;

beforeEach(async () => {
  db = await openTestDatabase();
  store = createContentStore(db);
});

afterEach(async () => {
  await db.dispose();
});

const fields = (title: string, body: string) => ({ title, summary: `${title} summary`, body });

async function tableNames(database: Database): Promise<string[]> {
  const rows =
    database.engine === 'sqlite'
      ? await database.query<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table'`
      : await database.query<{ name: string }>`
          SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'`;
  return rows.map((row) => row.name);
}

describe('migrations', () => {
  test('apply once and are idempotent', async () => {
    expect(await migrate(db)).toEqual([]);
    expect(await tableNames(db)).toEqual(
      expect.arrayContaining([
        'pages',
        'revisions',
        'drafts',
        'slug_history',
        'editors',
        'editor_sessions',
        'settings',
        'preview_links',
        'sign_in_attempts',
        'schema_migrations',
      ]),
    );
  });

  test('two processes migrating a new database together migrate it once', async () => {
    // Migrates a new database from nothing: seconds alone, far more beside a busy run (a CI
    // run with both cores loaded timed it out at 20–30 s).
    const blank = await createThrowAwayDatabase();
    const migrateIn = () =>
      Bun.spawn(['bun', 'src/cli/folio.ts', 'db', 'migrate'], {
        cwd: path.resolve(import.meta.dir, '../../..'),
        env: { ...process.env, DATABASE_URL: blank.url },
        stdout: 'pipe',
        stderr: 'pipe',
      });
    const children = [migrateIn(), migrateIn()];
    const outputs = await Promise.all(children.map((child) => new Response(child.stdout).text()));
    expect(await Promise.all(children.map((child) => child.exited))).toEqual([0, 0]);
    expect(outputs.sort()).toEqual([
      // Every migration there is (each branch that adds one need not edit this line).
      `applied ${migrations.length} migration(s): ${migrations.map((m) => `${m.id} ${m.name}`).join(', ')}\n`,
      'nothing to do: the database is up to date\n',
    ]);
    await blank.drop();
  }, 60_000);
});

describe('published and draft reads', () => {
  test('a draft-only page is invisible publicly and visible in draft mode', async () => {
    await store.saveDraft({
      slug: 'secret',
      ...fields('Secret', 'hidden words'),
      expectedVersion: null,
      editor: 'ed',
    });
    expect(await store.getPage('secret', { draft: false })).toBeNull();
    const draft = await store.getPage('secret', { draft: true });
    expect(draft?.state).toBe('draft-only');
    expect(draft?.bodyMarkdown).toBe('hidden words');
    expect(draft?.draftUpdatedBy).toBe('ed');
  });

  test('a changed page shows the published text publicly and the draft in draft mode', async () => {
    await store.putPage({ slug: 'page', ...fields('Live', 'live text') }, { publish: true });
    const live = await store.getPage('page', { draft: true });
    await store.saveDraft({
      slug: 'page',
      ...fields('Next', 'MARKER-123 draft'),
      expectedVersion: live?.version ?? 0,
      editor: null,
    });
    const publicView = await store.getPage('page', { draft: false });
    expect(publicView?.title).toBe('Live');
    expect(publicView?.state).toBe('published');
    expect(publicView?.showingDraft).toBe(false);
    expect(JSON.stringify(publicView)).not.toContain('MARKER-123');
    const draftView = await store.getPage('page', { draft: true });
    expect(draftView?.state).toBe('changed');
    expect(draftView?.bodyHtml).toContain('MARKER-123');
  });

  test('publish moves the draft live, keeps a revision, and bumps the content version', async () => {
    await store.saveDraft({
      slug: 'p',
      ...fields('One', 'first'),
      expectedVersion: null,
      editor: null,
    });
    const version = contentVersionOf(db);
    await version.follow();
    const before = version.current();
    await store.publish('p');
    expect((await store.getPage('p', { draft: false }))?.bodyMarkdown).toBe('first');
    expect(version.current()).toBe(before + 1);
    await store.putPage({ slug: 'p', ...fields('Two', 'second') }, { publish: true });
    expect((await store.getPage('p', { draft: false }))?.title).toBe('Two');
    expect(version.current()).toBe(before + 2);
    // A draft save changes nothing visitors see: the version stays.
    await store.putPage({ slug: 'p', ...fields('Three', 'draft') });
    expect(version.current()).toBe(before + 2);
    await version.stop();
  });

  test('unpublish hides the page and keeps its text as a draft; discard of a never-published page deletes it', async () => {
    await store.putPage({ slug: 'p', ...fields('One', 'kept text') }, { publish: true });
    await store.unpublish('p');
    expect(await store.getPage('p', { draft: false })).toBeNull();
    expect((await store.getPage('p', { draft: true }))?.bodyMarkdown).toBe('kept text');
    await store.discardDraft('p');
    expect(await store.getPage('p', { draft: true })).toBeNull();
  });

  test('discarding the draft of a published page restores the published text in preview', async () => {
    await store.putPage({ slug: 'p', ...fields('One', 'live') }, { publish: true });
    await store.putPage({ slug: 'p', ...fields('One', 'draft') });
    await store.discardDraft('p');
    expect((await store.getPage('p', { draft: true }))?.bodyMarkdown).toBe('live');
  });

  test('listPublished never lists drafts', async () => {
    await seedDemoContent(db, store);
    const slugs = (await store.listPublished()).map((page) => page.slug);
    expect(slugs[0]).toBe('home');
    expect(slugs).not.toContain('upcoming-feature');
    expect(JSON.stringify(await store.listPublished())).not.toContain(
      SEED_DRAFT_MARKERS.changedPage,
    );
  });

  test('markdown is rendered once, at save time', async () => {
    await store.saveDraft({
      slug: 'md',
      ...fields('M', '# Title\n\n<script>x</script>'),
      expectedVersion: null,
      editor: null,
    });
    const html = (await store.getPage('md', { draft: true }))?.bodyHtml ?? '';
    expect(html).toContain('<h1 id="title">Title</h1>');
    expect(html).not.toContain('<script>');
  });
});

describe('optimistic concurrency', () => {
  test('a save on a stale version is refused and returns what was saved meanwhile', async () => {
    await store.saveDraft({
      slug: 'c',
      ...fields('Base', 'base'),
      expectedVersion: null,
      editor: 'a',
    });
    const opened = (await store.getPage('c', { draft: true }))?.version ?? 0;
    const first = await store.saveDraft({
      slug: 'c',
      ...fields('A', 'from A'),
      expectedVersion: opened,
      editor: 'a',
    });
    expect(first.ok).toBe(true);
    const second = await store.saveDraft({
      slug: 'c',
      ...fields('B', 'from B'),
      expectedVersion: opened,
      editor: 'b',
    });
    expect(second.ok).toBe(false);
    if (!second.ok) expect(second.current?.bodyMarkdown).toBe('from A');
    expect((await store.getPage('c', { draft: true }))?.bodyMarkdown).toBe('from A');
  });

  test('creating a slug that exists is refused', async () => {
    await store.saveDraft({ slug: 'x', ...fields('X', 'x'), expectedVersion: null, editor: null });
    await expect(
      store.saveDraft({ slug: 'x', ...fields('Y', 'y'), expectedVersion: null, editor: null }),
    ).rejects.toThrow(ContentError);
  });

  test('reserved and malformed slugs are refused', async () => {
    for (const slug of ['preview', 'api', 'healthz', 'Bad', 'a--b', '-a', '']) {
      await expect(
        store.saveDraft({ slug, ...fields('X', 'x'), expectedVersion: null, editor: null }),
      ).rejects.toThrow(ContentError);
    }
  });

  test('invalid fields are refused with a message', async () => {
    await expect(
      store.saveDraft({
        slug: 'ok',
        title: '',
        summary: '',
        body: '',
        expectedVersion: null,
        editor: null,
      }),
    ).rejects.toThrow('Enter a title.');
  });
});

describe.if(TEST_ENGINE === 'sqlite')('a SQLite file locked by another process', () => {
  test('a save waits, then fails with a "try again" ContentError and writes nothing', async () => {
    const busyDb = await openDatabase(db.url, { busyTimeoutMs: 100 });
    const busyStore = createContentStore(busyDb);
    await busyStore.putPage({ slug: 'p', ...fields('P', 'before') }, { publish: true });
    const other = await openDatabase(db.url);
    await other.client.unsafe('BEGIN IMMEDIATE');
    const version = (await busyStore.getPage('p', { draft: true }))?.version ?? 0;
    const started = Date.now();
    await expect(
      busyStore.saveDraft({
        slug: 'p',
        ...fields('P', 'typed text'),
        expectedVersion: version,
        editor: null,
      }),
    ).rejects.toThrow(BUSY_MESSAGE);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    await other.client.unsafe('ROLLBACK');
    expect((await busyStore.getPage('p', { draft: true }))?.bodyMarkdown).toBe('before');
    await other.close();
    await busyDb.close();
  });
});

describe.if(TEST_ENGINE === 'postgres')('a PostgreSQL write lock held by another instance', () => {
  test('a save waits its lock timeout, then fails with a "try again" ContentError', async () => {
    const waiting = await openDatabase(db.url, { lockTimeoutMs: 150, poolSize: 2 });
    const waitingStore = createContentStore(waiting);
    await waitingStore.putPage({ slug: 'p', ...fields('P', 'before') });
    const holder = await openDatabase(db.url, { poolSize: 1 });
    // The other instance holds the lock from the moment its work starts until the save has
    // given up, however long each takes on a busy machine.
    let inside!: () => void;
    const holding = new Promise<void>((resolve) => {
      inside = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const held = holder.transaction(async () => {
      inside();
      await released;
    });
    await holding;
    const started = Date.now();
    const saving = waitingStore.putPage({ slug: 'p', ...fields('P', 'typed') });
    await expect(saving.finally(release)).rejects.toThrow(BUSY_MESSAGE);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    await held;
    expect((await waitingStore.getPage('p', { draft: true }))?.bodyMarkdown).toBe('before');
    await holder.close();
    await waiting.close();
  });
});

describe('concurrent writes', () => {
  // Bun's SQLite client has one connection: without Folio's turn-taking, a save sent while
  // another request's transaction was open ran inside it, and was rolled back with it.
  test('a transaction that fails takes nothing from the writes that ran beside it', async () => {
    await store.putPage({ slug: 'base', ...fields('Base', 'base') }, { publish: true });
    const failing = store.putPages(
      [
        { slug: 'first-of-batch', ...fields('First', 'one'), publish: true },
        { slug: 'base', ...fields('', 'an empty title fails the batch'), publish: false },
      ],
      { editor: 'batch' },
    );
    const beside = Array.from({ length: 10 }, (_, i) =>
      store.saveDraft({
        slug: `beside-${i}`,
        ...fields(`Beside ${i}`, 'kept'),
        expectedVersion: null,
        editor: 'beside',
      }),
    );
    await expect(failing).rejects.toThrow(ContentError);
    expect((await Promise.all(beside)).every((result) => result.ok)).toBe(true);
    const slugs = (await store.listAll()).map((page) => page.slug);
    for (let i = 0; i < 10; i++) expect(slugs).toContain(`beside-${i}`);
    expect(slugs).not.toContain('first-of-batch');
  });

  test('two publishes of the same version: one wins, the other is refused as stale', async () => {
    await store.putPage({ slug: 'race', ...fields('Race', 'v1') });
    const page = await store.getPage('race', { draft: true });
    const expected = { pageId: page?.id ?? 0, version: page?.version ?? 0 };
    const outcomes = await Promise.allSettled([
      store.publish('race', { editor: 'a', ...expected }),
      store.publish('race', { editor: 'b', ...expected }),
    ]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.find((outcome) => outcome.status === 'rejected');
    expect((refused as PromiseRejectedResult).reason).toBeInstanceOf(ContentError);
    expect(((refused as PromiseRejectedResult).reason as ContentError).code).toBe('conflict');
  });

  test('page ids are never reused, whatever the engine', async () => {
    await store.putPage({ slug: 'gone', ...fields('Gone', 'x') });
    const gone = (await store.getPage('gone', { draft: true }))?.id ?? 0;
    await store.discardDraft('gone');
    await store.putPage({ slug: 'next', ...fields('Next', 'y') });
    expect((await store.getPage('next', { draft: true }))?.id).toBeGreaterThan(gone);
  });
});

describe('renames', () => {
  test('old slugs redirect to the current one, through chains, and a slug can be taken back', async () => {
    await store.putPage({ slug: 'a', ...fields('A', 'a') }, { publish: true });
    await store.renameSlug('a', 'b');
    expect(await store.findRedirect('a')).toBe('b');
    await store.renameSlug('b', 'c');
    expect(await store.findRedirect('a')).toBe('c');
    expect(await store.findRedirect('b')).toBe('c');
    await store.renameSlug('c', 'a');
    expect(await store.findRedirect('a')).toBeNull();
    expect((await store.getPage('a', { draft: false }))?.title).toBe('A');
    expect(await store.findRedirect('c')).toBe('a');
  });

  test('a rename to a taken slug is refused, and unpublished pages do not redirect publicly', async () => {
    await store.putPage({ slug: 'a', ...fields('A', 'a') }, { publish: true });
    await store.putPage({ slug: 'b', ...fields('B', 'b') });
    await expect(store.renameSlug('a', 'b')).rejects.toThrow(ContentError);
    await store.renameSlug('b', 'd');
    expect(await store.findRedirect('b')).toBeNull();
    expect(await store.findRedirect('b', { draft: true })).toBe('d');
  });
});

describe('seed', () => {
  test('creates the demo pages once', async () => {
    expect(await seedDemoContent(db, store)).toBe(true);
    expect(await seedDemoContent(db, store)).toBe(false);
    expect(await store.getPage('home', { draft: false })).not.toBeNull();
    expect((await store.listPublished()).length).toBeGreaterThanOrEqual(6);
    expect((await store.getPage('upcoming-feature', { draft: true }))?.bodyMarkdown).toContain(
      SEED_DRAFT_MARKERS.draftOnlyPage,
    );
    expect((await store.getPage('release-notes', { draft: true }))?.bodyMarkdown).toContain(
      SEED_DRAFT_MARKERS.changedPage,
    );
    expect(await store.findRedirect('style-guide')).toBe('editorial-guidelines');
  });
});

// Hostile pass (issue 14): an image used only by an old version could be deleted; restoring
// that version and publishing it showed visitors a broken image. Every way of publishing
// (the editor, the CLI, a schedule) now refuses a text naming an image the library lacks.
describe('a text naming an image the library does not have', () => {
  async function uploaded(): Promise<string> {
    const bytes = await sharp({
      create: { width: 40, height: 30, channels: 3, background: '#336699' },
    })
      .png()
      .toBuffer();
    const item = await createMediaStore(db).add(await processImage(new Uint8Array(bytes)), {
      alt: 'A blue square',
      filename: 'blue.png',
    });
    return item.hash;
  }

  test('is not published, and says which image; the draft is kept', async () => {
    const hash = await uploaded();
    const base = { slug: 'pictured', title: 'Pictured', summary: '' };
    await store.putPage({ ...base, body: `![A blue square](/media/${hash})` }, { publish: true });
    await store.putPage({ ...base, body: 'No picture now.' }, { publish: true });
    await createMediaStore(db).remove(hash);
    await store.putPage({ ...base, body: `Back: ![A blue square](/media/${hash})` });
    const refusal = await store.publish('pictured').catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ContentError);
    expect((refusal as ContentError).code).toBe('missing-media');
    expect((refusal as ContentError).message).toContain(`/media/${hash}`);
    expect((await store.getPage('pictured', { draft: false }))?.bodyMarkdown).toBe(
      'No picture now.',
    );
    expect((await store.getPage('pictured', { draft: true }))?.bodyMarkdown).toContain('Back:');
  });

  // Fourth hostile pass: spellings the Markdown check missed got broken images published,
  // and a hash in a code sample was refused as an image.
  test('is refused however it is spelt, and a hash in code is no image', async () => {
    const hash = await uploaded();
    const missing = 'a'.repeat(32);
    const refused = async (body: string) => {
      await store.putPage({ slug: 'spelt', title: 'Spelt', summary: '', body });
      const error = await store.publish('spelt').then(
        () => null,
        (caught: unknown) => caught,
      );
      return error instanceof ContentError ? error.code : 'published';
    };
    expect(await refused(`![x](/media/&#97;${missing.slice(1)})`)).toBe('missing-media');
    expect(await refused(`![x](/media/${hash.toUpperCase()})`)).toBe('missing-media');
    expect(await refused(`![x](/media/%${hash.charCodeAt(0).toString(16)}${hash.slice(1)})`)).toBe(
      'missing-media',
    );
    // A library image's own address, whatever file it names, renders as its <picture>.
    expect(await refused(`![x](/media/${hash}/9999.avif)`)).toBe('published');
    expect(await refused(`[a size it lacks](/media/${hash}/9999.avif)`)).toBe('missing-media');
    expect(await refused(`[the original](/media/${missing})`)).toBe('missing-media');
    expect(
      await refused(`\`\`\`md\n![x](/media/${missing})\n\`\`\`\n\nAnd \`/media/${missing}\`.`),
    ).toBe('published');
    expect(await refused(`![x](/media/&#${hash.charCodeAt(0)};${hash.slice(1)})`)).toBe(
      'published',
    );
    // That last page shows the image through an entity: it is in use, so it stays.
    expect((await createMediaStore(db).uses([hash])).get(hash)).toEqual({
      pages: 1,
      shown: [{ slug: 'spelt', published: true, draft: false }],
    });
    const kept = await createMediaStore(db)
      .remove(hash)
      .catch((error: unknown) => (error as ContentError).code);
    expect(kept).toBe('conflict');
  });

  // Second hostile pass: the delete read which pages use the image before its transaction,
  // so a publish committed by another process in between was not seen. Write transactions go
  // one at a time (PostgreSQL: an advisory lock; SQLite's BEGIN IMMEDIATE waits synchronously,
  // so two in one process cannot interleave here): the delete now looks once it holds the lock.
  test.skipIf(TEST_ENGINE !== 'postgres')(
    'a delete that waits for a publish in flight sees it, and refuses',
    async () => {
      const hash = await uploaded();
      await store.putPage({ slug: 'racing', title: 'Racing', summary: '', body: 'No image yet.' });
      const page = await store.getPage('racing', { draft: true });
      let inside!: () => void;
      const holding = new Promise<void>((resolve) => {
        inside = resolve;
      });
      const publishing = db.transaction(async (q) => {
        // As a save writes it: the HTML and the images it uses (migration 11).
        await q`UPDATE drafts SET body_html = ${`<p><img src="/media/${hash}/original.png" alt="x"></p>`},
                media_refs = ${JSON.stringify([hash])} WHERE page_id = ${page?.id ?? -1}`;
        inside();
        await Bun.sleep(300);
      });
      await holding;
      // Another instance's delete, started while that transaction holds the write lock.
      const deleting = createMediaStore(db)
        .remove(hash)
        .then(
          () => 'deleted',
          (error: unknown) => (error as ContentError).code ?? String(error),
        );
      await publishing;
      expect(await deleting).toBe('conflict');
    },
  );

  test('cannot be scheduled, and a schedule set before the image went is cleared, not kept', async () => {
    let clock = new Date('2026-06-01T10:00:00Z');
    const timed = createContentStore(db, () => clock);
    const hash = await uploaded();
    const typo = 'f'.repeat(32);
    await timed.putPage({
      slug: 'later',
      title: 'Later',
      summary: '',
      body: `![x](/media/${typo})`,
    });
    const refused = await timed
      .schedulePublish('later', new Date('2026-06-01T11:00:00Z'))
      .catch((error: unknown) => error);
    expect((refused as ContentError).code).toBe('missing-media');
    expect((refused as ContentError).message).toStartWith('Not scheduled');

    await timed.putPage({
      slug: 'later',
      title: 'Later',
      summary: '',
      body: `![x](/media/${hash})`,
    });
    await timed.schedulePublish('later', new Date('2026-06-01T11:00:00Z'));
    // The editor changes the draft after scheduling: it now names an image never uploaded.
    await timed.putPage({
      slug: 'later',
      title: 'Later',
      summary: '',
      body: `![x](/media/${typo})`,
    });
    clock = new Date('2026-06-01T11:00:30Z');
    const [outcome] = await timed.publishDue();
    expect(outcome?.slug).toBe('later');
    expect(outcome?.refused).toContain(`/media/${typo}`);
    expect(await timed.getPage('later', { draft: false })).toBeNull();
    expect(await timed.scheduleOf((await timed.getPage('later', { draft: true }))?.id ?? -1)).toBe(
      null,
    );
    expect(await timed.publishDue()).toEqual([]);

    // What was missed and why stays on the page for its editors, until answered.
    const id = (await timed.getPage('later', { draft: true }))?.id ?? -1;
    const missed = await timed.missedScheduleOf(id);
    expect(missed?.publishAt).toBe('2026-06-01T11:00:00.000Z');
    expect(missed?.reason).toStartWith('Not published: the page names an image');
    expect(missed?.reason).toContain(`/media/${typo}`);
    const listed = (await timed.listAll()).find((page) => page.slug === 'later');
    expect(listed?.missedPublishAt).toBe('2026-06-01T11:00:00.000Z');
    // A new schedule answers it; so does a publish, a discard, or dismissing it.
    await timed.putPage({ slug: 'later', title: 'Later', summary: '', body: 'Mended.' });
    await timed.schedulePublish('later', new Date('2026-06-01T12:00:00Z'));
    expect(await timed.missedScheduleOf(id)).toBeNull();
    await timed.putPage({
      slug: 'later',
      title: 'Later',
      summary: '',
      body: `![x](/media/${typo})`,
    });
    clock = new Date('2026-06-01T12:00:10Z');
    expect((await timed.publishDue())[0]?.refused).toBeDefined();
    expect(await timed.missedScheduleOf(id)).not.toBeNull();
    await timed.putPage({ slug: 'later', title: 'Later', summary: '', body: 'Mended.' });
    await timed.publish('later');
    expect(await timed.missedScheduleOf(id)).toBeNull();
    expect(
      (await timed.listAll()).find((page) => page.slug === 'later')?.missedPublishAt,
    ).toBeNull();
  });

  test('the notice of a missed schedule is dismissed once, never a newer one unread; a discarded draft takes it too', async () => {
    let clock = new Date('2026-06-01T10:00:00Z');
    const timed = createContentStore(db, () => clock);
    const typo = 'e'.repeat(32);
    const missAt = async (slug: string, at: string) => {
      await timed.putPage({ slug, title: 'Missed', summary: '', body: 'Out.' }, { publish: true });
      await timed.putPage({ slug, title: 'Missed', summary: '', body: 'Fine for now.' });
      await timed.schedulePublish(slug, new Date(at));
      await timed.putPage({ slug, title: 'Missed', summary: '', body: `![x](/media/${typo})` });
      clock = new Date(Date.parse(at) + 1000);
      expect((await timed.publishDue())[0]?.refused).toBeDefined();
      return (await timed.getPage(slug, { draft: true }))?.id ?? -1;
    };
    const first = '2026-06-01T11:00:00.000Z';
    const dismissed = await missAt('missed-once', first);
    // A tab read that notice; meanwhile the page missed again, later.
    const second = '2026-06-01T11:30:00.000Z';
    await missAt('missed-once', second);
    expect(
      await timed.dismissMissedSchedule('missed-once', { pageId: dismissed, missedAt: first }),
    ).toBe('newer');
    expect((await timed.missedScheduleOf(dismissed))?.publishAt).toBe(second);
    expect(
      await timed.dismissMissedSchedule('missed-once', { pageId: dismissed, missedAt: second }),
    ).toBe('dismissed');
    expect(
      await timed.dismissMissedSchedule('missed-once', { pageId: dismissed, missedAt: second }),
    ).toBe('nothing');
    expect(await timed.missedScheduleOf(dismissed)).toBeNull();
    // The draft it was about stays as it was.
    expect((await timed.getPage('missed-once', { draft: true }))?.bodyMarkdown).toContain(typo);

    const discarded = await missAt('missed-discard', '2026-06-01T12:00:00Z');
    await timed.discardDraft('missed-discard');
    expect((await timed.getPage('missed-discard', { draft: true }))?.bodyMarkdown).toBe('Out.');
    expect(await timed.missedScheduleOf(discarded)).toBeNull();
  });
});

// "Due" is judged by the database's clock (schedules.ts): on PostgreSQL several instances share
// one database, and one whose clock runs fast must not publish an embargoed page early. (A
// SQLite file is local: its clock is the process's, which the tests above inject.)
describe.if(TEST_ENGINE === 'postgres')('scheduled publishing by the database clock', () => {
  test('an instance whose clock is ten minutes fast publishes nothing before the database clock reaches the time', async () => {
    const fast = createContentStore(db, () => new Date(Date.now() + 10 * 60_000));
    await store.putPage({ slug: 'embargoed', title: 'Embargoed', summary: '', body: 'Not yet.' });
    const due = new Date(Date.now() + 1_500);
    // Scheduled through an instance with a right clock (the fast one would call it past).
    await store.schedulePublish('embargoed', due);
    expect(await fast.publishDue()).toEqual([]);
    expect(await store.getPage('embargoed', { draft: false })).toBeNull();

    // Once the database's clock reaches the time, the fast instance publishes it.
    const giveUpAt = Date.now() + 15_000;
    let published = await fast.publishDue();
    while (published.length === 0 && Date.now() < giveUpAt) {
      await Bun.sleep(100);
      published = await fast.publishDue();
    }
    expect(published.map((page) => page.slug)).toEqual(['embargoed']);
    const [clock] = await db.query<{ reached: boolean }>`
      SELECT now() >= ${due.toISOString()}::timestamptz AS reached`;
    expect(clock?.reached).toBe(true);
    expect((await store.getPage('embargoed', { draft: false }))?.title).toBe('Embargoed');
  });
});

// Issue 24: the history's list was every version with its full text, on every preview view.
describe('history', () => {
  test('lists versions without their text; one is read by id, from its own page only', async () => {
    const base = { slug: 'versions', title: 'Versions', summary: 'S' };
    for (const body of ['One.', 'Two.', 'Three.'])
      await store.putPage({ ...base, body }, { publish: true });
    await store.putPage(
      { slug: 'other', title: 'Other', summary: '', body: 'Else.' },
      { publish: true },
    );
    const id = (await store.getPage('versions', { draft: true }))?.id ?? -1;
    const otherId = (await store.getPage('other', { draft: true }))?.id ?? -1;

    const listed = await store.listRevisions(id);
    expect(listed).toHaveLength(3);
    expect(await store.countRevisions(id)).toBe(3);
    for (const revision of listed)
      expect(Object.keys(revision).sort()).toEqual(
        ['bySchedule', 'current', 'id', 'pageId', 'publishedAt', 'publishedBy'].sort(),
      );
    // @ts-expect-error: a listed version has no body (the type says so, not only the query).
    expect(listed[0]?.bodyMarkdown).toBeUndefined();
    expect(listed.map((revision) => revision.current)).toEqual([true, false, false]);

    const oldest = listed.at(-1)?.id ?? -1;
    expect((await store.getRevision(id, oldest))?.bodyMarkdown).toBe('One.');
    const [otherRevision] = await store.listRevisions(otherId);
    expect(await store.getRevision(id, otherRevision?.id ?? -1)).toBeNull();

    // Restore reads the one it needs, from this page only.
    const page = await store.getPage('versions', { draft: true });
    expect(
      await store.restoreRevision({
        pageId: id,
        revisionId: oldest,
        expectedVersion: page?.version ?? -1,
        editor: null,
      }),
    ).toMatchObject({ ok: true });
    expect((await store.getPage('versions', { draft: true }))?.bodyMarkdown).toBe('One.');
    await expect(
      store.restoreRevision({
        pageId: id,
        revisionId: otherRevision?.id ?? -1,
        expectedVersion: (page?.version ?? -1) + 1,
        editor: null,
      }),
    ).rejects.toThrow('That version is not in this page’s history.');
  });
});
