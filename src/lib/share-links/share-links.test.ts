import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { openTestDatabase } from '../../../tests/databases';
import { type ContentStore, createContentStore } from '../content/content';
import {
  checkPreviewLink,
  createPreviewLink,
  listPreviewLinks,
  MAX_PREVIEW_LINK_SECONDS,
  parseTtl,
  revokePreviewLink,
} from './share-links';

// On the run's engine (FOLIO_TEST_ENGINE).
let db: Awaited<ReturnType<typeof openTestDatabase>>;
let store: ContentStore;
let pageId: number;
beforeEach(async () => {
  db = await openTestDatabase();
  store = createContentStore(db);
  await store.putPage({ slug: 'draft', title: 'Draft', summary: '', body: 'secret' });
  pageId = (await store.getPage('draft', { draft: true }))?.id ?? 0;
});
afterEach(async () => {
  await db.dispose();
});

const NOW = 1_700_000_000_000;

describe('preview links', () => {
  test('a link opens its page (by id) until it expires, and stores only a hash of its token', async () => {
    const { token, link } = await createPreviewLink(db, {
      pageId,
      createdBy: 'ed',
      ttlSeconds: 60,
      now: NOW,
    });
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(link).toMatchObject({ pageId, slug: 'draft', createdBy: 'ed', revokedAt: null });
    expect(JSON.stringify(await db.query`SELECT * FROM preview_links`)).not.toContain(token);
    const check = await checkPreviewLink(db, token, NOW);
    expect(check.ok && check.link.pageId).toBe(pageId);
    expect(check.ok && check.link.id).toBe(link.id);
    expect(await checkPreviewLink(db, token, NOW + 60_000)).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  test('tampered, truncated and garbage tokens are invalid, never an error', async () => {
    const { token } = await createPreviewLink(db, {
      pageId,
      createdBy: null,
      ttlSeconds: 60,
      now: NOW,
    });
    for (const bad of [
      `${token}x`,
      token.slice(1),
      `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`,
      '',
      'x'.repeat(5000),
      '%00',
      '..',
    ])
      expect(await checkPreviewLink(db, bad, NOW), bad.slice(0, 20)).toEqual({
        ok: false,
        reason: 'invalid',
      });
  });

  test('links are listed per page and revoked one by one; a deleted page takes its links along', async () => {
    const a = await createPreviewLink(db, { pageId, createdBy: 'ed', ttlSeconds: 60, now: NOW });
    const b = await createPreviewLink(db, { pageId, createdBy: 'ed', ttlSeconds: 3600, now: NOW });
    expect((await listPreviewLinks(db, { pageId, now: NOW })).map((l) => l.id)).toEqual([
      b.link.id,
      a.link.id,
    ]);
    expect(await revokePreviewLink(db, a.link.id, { pageId: pageId + 1 })).toBe(false);
    expect(await revokePreviewLink(db, a.link.id, { pageId })).toBe(true);
    expect(await revokePreviewLink(db, a.link.id)).toBe(false);
    expect(await checkPreviewLink(db, a.token, NOW)).toEqual({ ok: false, reason: 'revoked' });
    expect((await listPreviewLinks(db, { now: NOW })).map((l) => l.id)).toEqual([b.link.id]);
    await store.discardDraft('draft');
    expect(await checkPreviewLink(db, b.token, NOW)).toEqual({ ok: false, reason: 'invalid' });
  });

  test('no link outlives the longest duration the share form offers', async () => {
    await expect(
      createPreviewLink(db, { pageId, createdBy: null, ttlSeconds: MAX_PREVIEW_LINK_SECONDS + 1 }),
    ).rejects.toThrow(RangeError);
  });
});

describe('parseTtl', () => {
  test('reads 90s, 15m, 24h and 7d; says the limit when asked for more', () => {
    expect(parseTtl('90s')).toEqual({ seconds: 90 });
    expect(parseTtl('15m')).toEqual({ seconds: 900 });
    expect(parseTtl('24h')).toEqual({ seconds: 86_400 });
    expect(parseTtl('7d')).toEqual({ seconds: 7 * 86_400 });
    expect(parseTtl('400d')).toEqual({
      error: '--ttl 400d is too long: a preview link lasts at most 7 days (7d)',
    });
    for (const bad of ['', '0h', '3w', '1.5h', '-1d', 'h', '10'])
      expect('error' in parseTtl(bad), bad).toBe(true);
  });
});
