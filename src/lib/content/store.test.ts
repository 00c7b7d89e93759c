import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import sharp from 'sharp';
import { openTestDatabase } from '../../../tests/databases';
import { createMediaStore, processImage } from '../media/media';
import { type ContentStore, createContentStore, databaseTroubleOf } from './content';

// What the store offers callers outside the domain (pages, components) so that they need not
// reach into src/lib/data. Runs on the run's engine (FOLIO_TEST_ENGINE).
let db: Awaited<ReturnType<typeof openTestDatabase>>;
let store: ContentStore;

beforeEach(async () => {
  db = await openTestDatabase();
  store = createContentStore(db);
});

afterEach(async () => {
  await db.dispose();
});

describe('renderBody', () => {
  test('renders unsaved Markdown as a page would show it, its images with their sizes', async () => {
    const bytes = await sharp({
      create: { width: 40, height: 30, channels: 3, background: '#336699' },
    })
      .png()
      .toBuffer();
    const { hash } = await createMediaStore(db).add(await processImage(new Uint8Array(bytes)), {
      alt: 'A blue square',
      filename: 'blue.png',
    });
    const body = `# Hello\n\n![A blue square](/media/${hash})`;
    const html = await store.renderBody(body);
    expect(html).toContain('<picture');
    expect(html).toContain('width="40"');
    // The same HTML a save keeps; nothing was stored by rendering.
    expect(await store.pageCount()).toBe(0);
    await store.putPage({ slug: 'pictured', title: 'P', summary: '', body });
    expect((await store.getPage('pictured', { draft: true }))?.bodyHtml).toBe(html);
  });
});

describe('databaseTroubleOf', () => {
  test("names a busy or unreachable database in the store's words, and nothing else", () => {
    expect(databaseTroubleOf(Object.assign(new Error('locked'), { code: 'SQLITE_BUSY' }))).toBe(
      'busy',
    );
    expect(databaseTroubleOf(Object.assign(new Error('lock'), { errno: '55P03' }))).toBe('busy');
    expect(
      databaseTroubleOf(
        Object.assign(new Error('gone'), { code: 'ERR_POSTGRES_CONNECTION_CLOSED' }),
      ),
    ).toBe('unavailable');
    // A full disk (SQLite's SQLITE_FULL, PostgreSQL's 53100): "cannot save right now" too.
    expect(databaseTroubleOf(Object.assign(new Error('full'), { code: 'SQLITE_FULL' }))).toBe(
      'unavailable',
    );
    expect(databaseTroubleOf(Object.assign(new Error('full'), { errno: '53100' }))).toBe(
      'unavailable',
    );
    expect(databaseTroubleOf(new Error('a bug'))).toBeNull();
    expect(databaseTroubleOf(undefined)).toBeNull();
  });
});
