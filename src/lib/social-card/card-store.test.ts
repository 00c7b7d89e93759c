// A page keeps one generated card on disk (issue 27's leftovers): the folder grew by a card for
// every revision and title a page ever had, and kept a deleted page's forever.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openTestDatabase } from '../../../tests/databases';
import { type ContentStore, createContentStore } from '../content/content';
import type { ContentEvent } from '../content/events';
import { siteSettingsIn } from '../content/settings';
import { cardKey } from './card-address';
import { createCardStore } from './card-store';

let db: Awaited<ReturnType<typeof openTestDatabase>>;
let store: ContentStore;
const directory = mkdtempSync(path.join(tmpdir(), 'folio-cards-test-'));
beforeAll(async () => {
  db = await openTestDatabase();
  store = createContentStore(db);
});
afterAll(() => db.dispose());

const files = () => readdirSync(directory).sort();

/** The key of the page's card as its published revision makes it now. */
async function currentKey(slug: string): Promise<{ key: string; pageId: number }> {
  const page = await store.getPage(slug, { draft: false });
  if (!page?.publishedAt) throw new Error(`${slug} is not published`);
  const [row] = await db.query<{ published_at: string; title: string }>`
    SELECT r.published_at, r.title FROM pages p JOIN revisions r ON r.id = p.published_revision_id
    WHERE p.id = ${page.id}`;
  const settings = await siteSettingsIn(db.query);
  const key = cardKey({
    pageId: page.id,
    publishedAt: row?.published_at ?? '',
    title: row?.title ?? '',
    siteTitle: settings.title,
    accent: settings.accent,
  });
  return { key, pageId: page.id };
}

const event = (type: ContentEvent['type'], pageId: number): ContentEvent => ({
  id: 1,
  type,
  pageId,
  slug: null,
  payload: {},
  editor: null,
  createdAt: new Date().toISOString(),
});

test('a new card replaces the page’s old ones; deleted or unpublished, the page has none', async () => {
  const cards = createCardStore({ database: async () => db, directory });
  await store.putPage(
    { slug: 'carded', title: 'First title', summary: '', body: 'b' },
    {
      publish: true,
    },
  );
  await store.putPage({ slug: 'other', title: 'Other', summary: '', body: 'o' }, { publish: true });
  const first = await currentKey('carded');
  const other = await currentKey('other');
  expect(await cards.card(first.key, first.pageId)).not.toBeNull();
  expect(await cards.card(other.key, other.pageId)).not.toBeNull();
  // A stray file and a card-like name of another page are left alone.
  writeFileSync(path.join(directory, 'notes.txt'), 'not a card');
  expect(files()).toEqual(
    [`${first.key}-${first.pageId}.png`, `${other.key}-${other.pageId}.png`, 'notes.txt'].sort(),
  );

  // A new title published: its card is drawn, the old one goes.
  await store.putPage(
    { slug: 'carded', title: 'Second title', summary: '', body: 'b' },
    {
      publish: true,
    },
  );
  const second = await currentKey('carded');
  expect(second.key).not.toBe(first.key);
  expect(await cards.card(second.key, second.pageId)).not.toBeNull();
  expect(files()).toEqual(
    [`${second.key}-${second.pageId}.png`, `${other.key}-${other.pageId}.png`, 'notes.txt'].sort(),
  );
  // The old address answers nothing (as before) and draws nothing back.
  expect(await cards.card(first.key, first.pageId)).toBeNull();
  expect(files()).toHaveLength(3);

  // Unpublished, then deleted: the events take its cards; the other page keeps its own.
  await cards.onContentEvent(event('page.unpublished', second.pageId));
  expect(files()).toEqual([`${other.key}-${other.pageId}.png`, 'notes.txt'].sort());
  await cards.onContentEvent(event('page.deleted', other.pageId));
  await cards.onContentEvent(event('page.published', 999));
  expect(files()).toEqual(['notes.txt']);
}, 30_000);

test('the events reach the cards from the store’s own dispatch', async () => {
  const cards = createCardStore({ database: async () => db, directory });
  await store.putPage(
    { slug: 'dispatched', title: 'D', summary: '', body: 'd' },
    {
      publish: true,
    },
  );
  await store.dispatchEvents();
  const { key, pageId } = await currentKey('dispatched');
  await cards.card(key, pageId);
  expect(files()).toContain(`${key}-${pageId}.png`);
  const unsubscribe = store.subscribeToEvents((each) => cards.onContentEvent(each));
  try {
    await store.unpublish('dispatched');
    await store.dispatchEvents();
    expect(files()).not.toContain(`${key}-${pageId}.png`);
  } finally {
    unsubscribe();
  }
}, 30_000);
