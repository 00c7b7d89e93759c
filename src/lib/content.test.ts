import { beforeEach, describe, expect, test } from 'bun:test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BUSY_MESSAGE, ContentError, type ContentStore, createContentStore } from './content';
import { migrate, openDatabase } from './db';
import { SEED_DRAFT_MARKERS, seedDemoContent } from './seed';

let store: ContentStore;

beforeEach(() => {
  store = createContentStore(openDatabase('sqlite::memory:'));
});

const fields = (title: string, body: string) => ({ title, summary: `${title} summary`, body });

describe('migrations', () => {
  test('apply once and are idempotent', () => {
    const db = openDatabase('sqlite::memory:');
    expect(migrate(db)).toEqual([]);
    const tables = db
      .query<{ name: string }, []>(
        "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
      )
      .all()
      .map((row) => row.name);
    expect(tables).toEqual(
      expect.arrayContaining([
        'pages',
        'revisions',
        'drafts',
        'slug_history',
        'editors',
        'settings',
        'schema_migrations',
      ]),
    );
  });
});

describe('published and draft reads', () => {
  test('a draft-only page is invisible publicly and visible in draft mode', () => {
    store.saveDraft({
      slug: 'secret',
      ...fields('Secret', 'hidden words'),
      expectedVersion: null,
      editor: 'ed',
    });
    expect(store.getPage('secret', { draft: false })).toBeNull();
    const draft = store.getPage('secret', { draft: true });
    expect(draft?.state).toBe('draft-only');
    expect(draft?.bodyMarkdown).toBe('hidden words');
    expect(draft?.draftUpdatedBy).toBe('ed');
  });

  test('a changed page shows the published text publicly and the draft in draft mode', () => {
    store.putPage({ slug: 'page', ...fields('Live', 'live text') }, { publish: true });
    const live = store.getPage('page', { draft: true });
    store.saveDraft({
      slug: 'page',
      ...fields('Next', 'MARKER-123 draft'),
      expectedVersion: live?.version ?? 0,
      editor: null,
    });
    const publicView = store.getPage('page', { draft: false });
    expect(publicView?.title).toBe('Live');
    expect(publicView?.state).toBe('published');
    expect(publicView?.showingDraft).toBe(false);
    expect(JSON.stringify(publicView)).not.toContain('MARKER-123');
    const draftView = store.getPage('page', { draft: true });
    expect(draftView?.state).toBe('changed');
    expect(draftView?.bodyHtml).toContain('MARKER-123');
  });

  test('publish moves the draft live, keeps a revision, and bumps the content version', () => {
    store.saveDraft({ slug: 'p', ...fields('One', 'first'), expectedVersion: null, editor: null });
    const before = store.contentVersion();
    store.publish('p');
    expect(store.getPage('p', { draft: false })?.bodyMarkdown).toBe('first');
    expect(store.contentVersion()).toBe(before + 1);
    store.putPage({ slug: 'p', ...fields('Two', 'second') }, { publish: true });
    expect(store.getPage('p', { draft: false })?.title).toBe('Two');
  });

  test('unpublish hides the page and keeps its text as a draft; discard of a never-published page deletes it', () => {
    store.putPage({ slug: 'p', ...fields('One', 'kept text') }, { publish: true });
    store.unpublish('p');
    expect(store.getPage('p', { draft: false })).toBeNull();
    expect(store.getPage('p', { draft: true })?.bodyMarkdown).toBe('kept text');
    store.discardDraft('p');
    expect(store.getPage('p', { draft: true })).toBeNull();
  });

  test('discarding the draft of a published page restores the published text in preview', () => {
    store.putPage({ slug: 'p', ...fields('One', 'live') }, { publish: true });
    store.putPage({ slug: 'p', ...fields('One', 'draft') });
    store.discardDraft('p');
    expect(store.getPage('p', { draft: true })?.bodyMarkdown).toBe('live');
  });

  test('listPublished never lists drafts', () => {
    seedDemoContent(store);
    const slugs = store.listPublished().map((page) => page.slug);
    expect(slugs[0]).toBe('home');
    expect(slugs).not.toContain('upcoming-feature');
    expect(JSON.stringify(store.listPublished())).not.toContain(SEED_DRAFT_MARKERS.changedPage);
  });

  test('markdown is rendered once, at save time', () => {
    store.saveDraft({
      slug: 'md',
      ...fields('M', '# Title\n\n<script>x</script>'),
      expectedVersion: null,
      editor: null,
    });
    const html = store.getPage('md', { draft: true })?.bodyHtml ?? '';
    expect(html).toContain('<h1 id="title">Title</h1>');
    expect(html).not.toContain('<script>');
  });
});

describe('optimistic concurrency', () => {
  test('a save on a stale version is refused and returns what was saved meanwhile', () => {
    store.saveDraft({ slug: 'c', ...fields('Base', 'base'), expectedVersion: null, editor: 'a' });
    const opened = store.getPage('c', { draft: true })?.version ?? 0;
    const first = store.saveDraft({
      slug: 'c',
      ...fields('A', 'from A'),
      expectedVersion: opened,
      editor: 'a',
    });
    expect(first.ok).toBe(true);
    const second = store.saveDraft({
      slug: 'c',
      ...fields('B', 'from B'),
      expectedVersion: opened,
      editor: 'b',
    });
    expect(second.ok).toBe(false);
    if (!second.ok) expect(second.current?.bodyMarkdown).toBe('from A');
    expect(store.getPage('c', { draft: true })?.bodyMarkdown).toBe('from A');
  });

  test('creating a slug that exists is refused', () => {
    store.saveDraft({ slug: 'x', ...fields('X', 'x'), expectedVersion: null, editor: null });
    expect(() =>
      store.saveDraft({ slug: 'x', ...fields('Y', 'y'), expectedVersion: null, editor: null }),
    ).toThrow(ContentError);
  });

  test('reserved and malformed slugs are refused', () => {
    for (const slug of ['preview', 'api', 'healthz', 'Bad', 'a--b', '-a', '']) {
      expect(() =>
        store.saveDraft({ slug, ...fields('X', 'x'), expectedVersion: null, editor: null }),
      ).toThrow(ContentError);
    }
  });

  test('invalid fields are refused with a message', () => {
    expect(() =>
      store.saveDraft({
        slug: 'ok',
        title: '',
        summary: '',
        body: '',
        expectedVersion: null,
        editor: null,
      }),
    ).toThrow('Enter a title.');
  });
});

describe('a database locked by another process', () => {
  test('a save waits, then fails with a "try again" ContentError and writes nothing', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'folio-busy-'));
    const url = `sqlite:${path.join(dir, 'folio.db')}`;
    const db = openDatabase(url);
    const busyStore = createContentStore(db);
    busyStore.putPage({ slug: 'p', ...fields('P', 'before') }, { publish: true });
    db.exec('PRAGMA busy_timeout = 100');
    const other = openDatabase(url);
    other.exec('BEGIN IMMEDIATE');
    const version = busyStore.getPage('p', { draft: true })?.version ?? 0;
    const started = Date.now();
    expect(() =>
      busyStore.saveDraft({
        slug: 'p',
        ...fields('P', 'typed text'),
        expectedVersion: version,
        editor: null,
      }),
    ).toThrow(BUSY_MESSAGE);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    other.exec('ROLLBACK');
    expect(busyStore.getPage('p', { draft: true })?.bodyMarkdown).toBe('before');
  });
});

describe('renames', () => {
  test('old slugs redirect to the current one, through chains, and a slug can be taken back', () => {
    store.putPage({ slug: 'a', ...fields('A', 'a') }, { publish: true });
    store.renameSlug('a', 'b');
    expect(store.findRedirect('a')).toBe('b');
    store.renameSlug('b', 'c');
    expect(store.findRedirect('a')).toBe('c');
    expect(store.findRedirect('b')).toBe('c');
    store.renameSlug('c', 'a');
    expect(store.findRedirect('a')).toBeNull();
    expect(store.getPage('a', { draft: false })?.title).toBe('A');
    expect(store.findRedirect('c')).toBe('a');
  });

  test('a rename to a taken slug is refused, and unpublished pages do not redirect publicly', () => {
    store.putPage({ slug: 'a', ...fields('A', 'a') }, { publish: true });
    store.putPage({ slug: 'b', ...fields('B', 'b') });
    expect(() => store.renameSlug('a', 'b')).toThrow(ContentError);
    store.renameSlug('b', 'd');
    expect(store.findRedirect('b')).toBeNull();
    expect(store.findRedirect('b', { draft: true })).toBe('d');
  });
});

describe('seed', () => {
  test('creates the demo pages once', () => {
    expect(seedDemoContent(store)).toBe(true);
    expect(seedDemoContent(store)).toBe(false);
    expect(store.getPage('home', { draft: false })).not.toBeNull();
    expect(store.listPublished().length).toBeGreaterThanOrEqual(6);
    expect(store.getPage('upcoming-feature', { draft: true })?.bodyMarkdown).toContain(
      SEED_DRAFT_MARKERS.draftOnlyPage,
    );
    expect(store.getPage('release-notes', { draft: true })?.bodyMarkdown).toContain(
      SEED_DRAFT_MARKERS.changedPage,
    );
    expect(store.findRedirect('style-guide')).toBe('editorial-guidelines');
  });
});
