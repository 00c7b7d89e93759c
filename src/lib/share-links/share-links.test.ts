import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { createThrowAwayDatabase, openTestDatabase } from '../../../tests/databases';
import { type ContentStore, createContentStore } from '../content/content';
import { migrate, openDatabase } from '../data/db';
import { migrations } from '../data/migrations';
import { addEditor, createSession, sessionIsOpen } from '../editors/accounts';
import {
  checkPreviewLink,
  createPreviewLink,
  listPreviewLinks,
  MAX_OPEN_LINKS_PER_PAGE,
  MAX_OPEN_LINKS_PER_PERSON,
  MAX_PREVIEW_LINK_SECONDS,
  parseTtl,
  revokeLinksMadeBy,
  revokePreviewLink,
  ShareLinkCapError,
  ShareLinkMakerGone,
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

/** `count` pages of their own (a person's cap spans pages), their ids. */
async function morePages(count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    await store.putPage({ slug: `more-${i}`, title: `More ${i}`, summary: '', body: 'x' });
    ids.push((await store.getPage(`more-${i}`, { draft: true }))?.id ?? 0);
  }
  return ids;
}

const openCount = async () =>
  Number(
    (
      await db.query<{ n: number | string }>`
        SELECT COUNT(*) AS n FROM preview_links WHERE revoked_at IS NULL`
    )[0]?.n,
  );

// Hostile review, issue 24: links outlived their maker, and nothing capped how many one person
// made (300 on a page in 8 s, all listed in the banner).
describe('share links answer to their maker, and are capped', () => {
  test('a page holds at most MAX_OPEN_LINKS_PER_PAGE open links: the next is refused, nothing made', async () => {
    for (let i = 0; i < MAX_OPEN_LINKS_PER_PAGE; i++)
      await createPreviewLink(db, {
        pageId,
        createdBy: `ed${i % 3}@x.org`,
        ttlSeconds: 60,
        now: NOW,
      });
    const refused = await createPreviewLink(db, {
      pageId,
      createdBy: 'amy@x.org',
      ttlSeconds: 60,
      now: NOW,
    }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ShareLinkCapError);
    expect((refused as ShareLinkCapError).message).toBe(
      `This page already has ${MAX_OPEN_LINKS_PER_PAGE} open share links: revoke one first.`,
    );
    expect(await openCount()).toBe(MAX_OPEN_LINKS_PER_PAGE);
    // Only open links count: one revoked, or all expired, make room again.
    const [newest] = await listPreviewLinks(db, { pageId, now: NOW });
    await revokePreviewLink(db, newest?.id ?? 0);
    await createPreviewLink(db, { pageId, createdBy: 'amy@x.org', ttlSeconds: 60, now: NOW });
    await createPreviewLink(db, {
      pageId,
      createdBy: 'amy@x.org',
      ttlSeconds: 60,
      now: NOW + 61_000,
    });
  });

  test('one person holds at most MAX_OPEN_LINKS_PER_PERSON open links, across pages; others still can', async () => {
    const pages = await morePages(
      Math.ceil(MAX_OPEN_LINKS_PER_PERSON / MAX_OPEN_LINKS_PER_PAGE) + 1,
    );
    for (let i = 0; i < MAX_OPEN_LINKS_PER_PERSON; i++)
      await createPreviewLink(db, {
        pageId: pages[Math.floor(i / MAX_OPEN_LINKS_PER_PAGE)] ?? 0,
        createdBy: 'ed@x.org',
        ttlSeconds: 60,
        now: NOW,
      });
    const refused = await createPreviewLink(db, {
      pageId,
      createdBy: 'ed@x.org',
      ttlSeconds: 60,
      now: NOW,
    }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ShareLinkCapError);
    expect((refused as ShareLinkCapError).cap).toBe('person');
    expect(await listPreviewLinks(db, { pageId, now: NOW })).toEqual([]);
    await createPreviewLink(db, { pageId, createdBy: 'amy@x.org', ttlSeconds: 60, now: NOW });
  });

  test('a burst of parallel creates never passes the page cap', async () => {
    const burst = 2 * MAX_OPEN_LINKS_PER_PAGE;
    const outcomes = await Promise.allSettled(
      Array.from({ length: burst }, (_, i) =>
        createPreviewLink(db, { pageId, createdBy: `p${i}@x.org`, ttlSeconds: 60, now: NOW }),
      ),
    );
    const made = outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
    const capped = outcomes.filter(
      (outcome) => outcome.status === 'rejected' && outcome.reason instanceof ShareLinkCapError,
    ).length;
    expect({ made, capped }).toEqual({
      made: MAX_OPEN_LINKS_PER_PAGE,
      capped: burst - MAX_OPEN_LINKS_PER_PAGE,
    });
    expect(await openCount()).toBe(MAX_OPEN_LINKS_PER_PAGE);
  }, 30_000);

  test("a page's list is bounded in the query, whatever rows the table holds", async () => {
    // Rows made before the caps existed (or by hand): the banner still lists at most the cap.
    for (let i = 0; i < MAX_OPEN_LINKS_PER_PAGE + 15; i++)
      await db.query`
        INSERT INTO preview_links (page_id, token_hash, created_by, created_at, expires_at)
        VALUES (${pageId}, ${`hash-${i}`}, 'ed@x.org', ${new Date(NOW).toISOString()},
                ${new Date(NOW + 60_000).toISOString()})`;
    expect(await listPreviewLinks(db, { pageId, now: NOW })).toHaveLength(MAX_OPEN_LINKS_PER_PAGE);
  });

  test("revokeLinksMadeBy revokes that maker's open links only, for good, and says how many", async () => {
    const mine = [
      await createPreviewLink(db, { pageId, createdBy: 'ed@x.org', ttlSeconds: 60, now: NOW }),
      await createPreviewLink(db, { pageId, createdBy: 'ed@x.org', ttlSeconds: 3600, now: NOW }),
    ];
    const theirs = await createPreviewLink(db, {
      pageId,
      createdBy: 'amy@x.org',
      ttlSeconds: 60,
      now: NOW,
    });
    const cli = await createPreviewLink(db, { pageId, createdBy: 'cli', ttlSeconds: 60, now: NOW });
    expect(await db.transaction((q) => revokeLinksMadeBy(q, 'ed@x.org', NOW))).toBe(2);
    for (const { token } of mine)
      expect(await checkPreviewLink(db, token, NOW)).toEqual({ ok: false, reason: 'revoked' });
    expect((await checkPreviewLink(db, theirs.token, NOW)).ok).toBe(true);
    expect((await checkPreviewLink(db, cli.token, NOW)).ok).toBe(true);
    expect(await db.transaction((q) => revokeLinksMadeBy(q, 'ed@x.org', NOW))).toBe(0);
  });
});

describe('a link is made only while its maker’s session is open (hostile pass)', () => {
  test('a create queued behind a password reset makes nothing; one before it is revoked by it', async () => {
    const editor = await addEditor(db, 'racer@example.com', 'the racer passphrase');
    const session = await db.transaction((q) => createSession(q, editor.id));
    const create = () =>
      createPreviewLink(db, {
        pageId,
        createdBy: editor.email,
        ttlSeconds: 60,
        stillSignedIn: (q) => sessionIsOpen(q, session.id),
      });
    // Made before the reset: the reset revokes it in its own write.
    await create();
    // The action checked the session (open), then its write waited behind the reset's: on
    // PostgreSQL the hostile pass saw such creates inserted after the reset had revoked all.
    await addEditor(db, editor.email, 'a new racer passphrase');
    expect(await create().catch((error: unknown) => error)).toBeInstanceOf(ShareLinkMakerGone);
    expect(await listPreviewLinks(db, { pageId })).toEqual([]);
  });
});

describe('migration 008', () => {
  test('revokes, once and for good, the open links of editors removed before it', async () => {
    // Migrates a new database from nothing: seconds alone, far more beside a busy run (a CI
    // run with both cores loaded timed it out at 20–30 s).
    const made = await createThrowAwayDatabase();
    const old = await openDatabase(made.url, { migrate: false, poolSize: 1 });
    try {
      // And the audit trail's table (025, which depends on nothing): today's createPreviewLink
      // records the link it makes there, in its transaction.
      const auditTrail = (migration: { id: number }) => migration.id === 25;
      await migrate(
        old,
        migrations.filter((migration) => migration.id < 8 || auditTrail(migration)),
      );
      // Written as the tables were then: today's store writes columns added since (media_refs).
      const at = new Date().toISOString();
      const oldPage = 1;
      await old.query`INSERT INTO pages (id, slug, created_at, updated_at)
                      VALUES (${oldPage}, 'old', ${at}, ${at})`;
      await old.query`INSERT INTO drafts (page_id, title, summary, body, body_html, updated_at)
                      VALUES (${oldPage}, 'Old', '', 'secret', '<p>secret</p>', ${at})`;
      await old.query`
        INSERT INTO editors (email, password_hash, created_at)
        VALUES ('kept@x.org', 'x', ${new Date().toISOString()})`;
      const link = async (createdBy: string | null) =>
        (await createPreviewLink(old, { pageId: oldPage, createdBy, ttlSeconds: 3600 })).token;
      const [kept, removed, cli, nobody] = [
        await link('kept@x.org'),
        await link('removed@x.org'),
        await link('cli'),
        await link(null),
      ];
      // 008 and every migration after it.
      expect((await migrate(old)).length).toBe(
        migrations.filter((m) => m.id >= 8 && !auditTrail(m)).length,
      );
      const opens = async (token: string) => (await checkPreviewLink(old, token)).ok;
      expect(await opens(kept)).toBe(true);
      expect(await opens(removed)).toBe(false);
      expect(await opens(cli)).toBe(true);
      expect(await opens(nobody)).toBe(true);
      const [row] = await old.query<{ revoked_at: string }>`
        SELECT revoked_at FROM preview_links WHERE created_by = 'removed@x.org'`;
      // Written as the code writes its timestamps (toISOString), so comparisons hold.
      expect(row?.revoked_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    } finally {
      await old.close();
      await made.drop();
    }
  }, 60_000);
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
