import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { openTestDatabase, TEST_ENGINE } from '../../../tests/databases';
import { waitFor } from '../../../tests/harness';
import { createContentStore } from '../content/content';
import { contentVersionOf } from './content-version';
import { type Database, openDatabase } from './db';

// Two handles on one database stand for two processes (two instances, or a server and the CLI).
let db: Awaited<ReturnType<typeof openTestDatabase>>;
let other: Database;
beforeEach(async () => {
  db = await openTestDatabase();
  other = await openDatabase(db.url);
});
afterEach(async () => {
  await other.close();
  await db.dispose();
});

const page = { slug: 'p', title: 'P', summary: '', body: 'text' };

describe(`the content version (${TEST_ENGINE})`, () => {
  test('is read from memory, and moves when another handle publishes', async () => {
    const followed = contentVersionOf(db);
    await followed.follow();
    const before = followed.current();
    await createContentStore(other).putPage(page, { publish: true });
    // SQLite: the sidecar is shared at once; PostgreSQL: the NOTIFY arrives within milliseconds.
    const after = await waitFor(() =>
      followed.current() > before ? followed.current() : undefined,
    );
    expect(after).toBe(before + 1);
    await followed.stop();
  });

  test('a draft save does not move it; unpublish, rename and delete do', async () => {
    const followed = contentVersionOf(db);
    await followed.follow();
    const store = createContentStore(db);
    const start = followed.current();
    await store.putPage(page);
    expect(followed.current()).toBe(start);
    await store.publish('p');
    await store.renameSlug('p', 'q');
    await store.unpublish('q');
    expect(followed.current()).toBe(start + 3);
    await followed.stop();
  });

  test('says which page another handle changed: every other page stays current (0028)', async () => {
    const followed = contentVersionOf(db);
    await followed.follow();
    const store = createContentStore(other);
    const reached = (version: number) =>
      waitFor(() => (followed.current() >= version ? true : undefined));
    await store.putPage(page, { publish: true });
    await store.putPage({ ...page, slug: 'q', title: 'Q' }, { publish: true });
    const before = contentVersionOf(other).current();
    await reached(before);
    // New text under the same title: only that page (and the listings) changed.
    await store.putPage({ ...page, body: 'new text' }, { publish: true });
    await reached(before + 1);
    expect(followed.stillCurrent(before, 'q')).toBe(true);
    expect(followed.stillCurrent(before, 'p')).toBe(false);
    expect(followed.stillCurrent(before + 1, 'p')).toBe(true);
    expect(followed.listingsVersion()).toBe(before + 1);
    // No navigation chosen: the header shows no page (issue 25), so a new title is p's alone.
    await store.putPage({ ...page, title: 'P renamed' }, { publish: true });
    await reached(before + 2);
    expect(followed.stillCurrent(before + 1, 'q')).toBe(true);
    expect(followed.stillCurrent(before + 1, 'p')).toBe(false);
    // In the header, its new title is a new link on every page: everything changed.
    const pageId = (await store.getPage('p', { draft: false }))?.id ?? 0;
    await store.saveSiteSettings({ ...(await store.getSiteSettings()), navigation: [pageId] });
    await store.putPage({ ...page, title: 'P in the header' }, { publish: true });
    await reached(before + 4);
    expect(followed.stillCurrent(before + 3, 'q')).toBe(false);
    // A rename changes the old and the new address; the site's settings, everything.
    const settings = await store.getSiteSettings();
    await store.saveSiteSettings({ ...settings, navigation: [] });
    await reached(before + 5);
    expect(followed.stillCurrent(before + 4, 'q')).toBe(false);
    await store.renameSlug('q', 'r');
    await reached(before + 6);
    expect(followed.stillCurrent(before + 5, 'q')).toBe(false);
    expect(followed.stillCurrent(before + 5, 'r')).toBe(false);
    expect(followed.stillCurrent(before + 5, 'p')).toBe(true);
    await followed.stop();
  });

  test('what it did not hear of counts as everything: a dropped listener (PostgreSQL), a follower too far behind (SQLite)', async () => {
    const followed = contentVersionOf(db);
    await followed.follow();
    const store = createContentStore(other);
    await store.putPage(page, { publish: true });
    await store.putPage({ ...page, slug: 'q', title: 'Q' }, { publish: true });
    const before = contentVersionOf(other).current();
    await waitFor(() => (followed.current() >= before ? true : undefined));
    if (TEST_ENGINE === 'postgres') {
      // A change whose notification never reaches this listener, as if it was published
      // while the listener's connection was down. (Publishing after cutting the connection is a
      // race: on a busy machine Bun's reconnect came first and heard it, which is right too.)
      await other.query`
        UPDATE settings SET value = CAST(CAST(value AS BIGINT) + 1 AS TEXT)
        WHERE key = 'content_version'`;
      // Then the listener's connection is cut; on reconnect it reads the stored version.
      await waitFor(async () => {
        const cut = await other.query<{ ok: boolean }>`
          SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
          WHERE datname = current_database() AND query ILIKE 'LISTEN%'`;
        return cut.length > 0 ? true : undefined;
      });
      // After the outage it is in step once it listens again; it reads the stored version.
      followed.suspect();
      await waitFor(async () => ((await followed.inStep()) ? true : undefined), {
        timeoutMs: 15_000,
      });
    } else {
      // More changes of p alone than the ring beside the file keeps, before the next read.
      for (let i = 0; i < 65; i++)
        await store.putPage({ ...page, body: `text ${i}` }, { publish: true });
    }
    await waitFor(() => (followed.current() > before ? true : undefined));
    // Only p changed, but this process cannot know that: q is not served from before.
    expect(followed.stillCurrent(before, 'q')).toBe(false);
    expect(followed.stillCurrent(followed.current(), 'q')).toBe(true);
    await followed.stop();
  });

  test('never moves back, whatever order writers announce in', async () => {
    const followed = contentVersionOf(db);
    await followed.follow();
    const now = followed.current();
    contentVersionOf(other).committed(now + 5);
    contentVersionOf(db).committed(now + 2);
    if (TEST_ENGINE === 'sqlite') expect(followed.current()).toBe(now + 5);
    else expect(followed.current()).toBe(now + 2);
    await followed.stop();
  });

  test('after an outage it is in step only once its listener is proved to hear again', async () => {
    const followed = contentVersionOf(db);
    await followed.follow();
    expect(await followed.inStep()).toBe(true);
    followed.suspect();
    // PostgreSQL: a notification to itself, heard, proves the listener; a SQLite file is
    // shared by every process and is always in step.
    expect(await followed.inStep()).toBe(true);
    await followed.stop();
    followed.suspect();
    expect(await followed.inStep()).toBe(TEST_ENGINE === 'sqlite');
  });
});
