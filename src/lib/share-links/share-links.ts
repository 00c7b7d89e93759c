// Owns shareable preview links: read-only access to one page's draft for a reviewer without an
// account. A link is a row bound to the page (not its slug, which can change hands), with an
// expiry no later than the longest the editor's form offers, listable and revocable. Only a
// hash of its random token is stored, so a copy of the database opens no drafts.
import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { recordAudit } from '../audit/audit';
import { type Database, getDatabase, type Query } from '../data/db';

/** What the share form offers; nothing lives longer than its longest choice. */
export const SHARE_DURATIONS = { '1h': 3600, '24h': 24 * 3600, '7d': 7 * 24 * 3600 } as const;
export type ShareDuration = keyof typeof SHARE_DURATIONS;
export const DEFAULT_SHARE_DURATION: ShareDuration = '24h';
export const MAX_PREVIEW_LINK_SECONDS = SHARE_DURATIONS['7d'];

/**
 * How many links may be open (not revoked, not expired) at once: on one page, and made by one
 * person (an editor's email, or the CLI's operator as one). A reviewer needs one link and a
 * busy page a handful; a page with hundreds was a script (hostile review, issue 24: 300 in 8 s,
 * and a 370 KB banner listing them). Over either, nothing is made and the maker is told why.
 */
export const MAX_OPEN_LINKS_PER_PAGE = 20;
export const MAX_OPEN_LINKS_PER_PERSON = 50;

/** Why a link was not made: a cap was reached. The message is what the editor or operator reads. */
/** The session making a link ended (signed out everywhere, password reset, removed) meanwhile. */
export class ShareLinkMakerGone extends Error {
  constructor() {
    super('the session making this share link ended before it was made');
    this.name = 'ShareLinkMakerGone';
  }
}

export class ShareLinkCapError extends Error {
  constructor(
    readonly cap: 'page' | 'person',
    readonly limit: number,
  ) {
    super(
      cap === 'page'
        ? `This page already has ${limit} open share links: revoke one first.`
        : `You already have ${limit} open share links: revoke one first.`,
    );
    this.name = 'ShareLinkCapError';
  }
}

export type PreviewLink = {
  id: number;
  pageId: number;
  slug: string;
  createdBy: string | null;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
};

export type PreviewLinkCheck =
  | { ok: true; link: PreviewLink }
  | { ok: false; reason: 'invalid' | 'expired' | 'revoked' };

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * `90s`, `15m`, `24h`, `7d` in seconds, or an error that says what is allowed (the limit is
 * the longest duration the share form offers).
 */
export function parseTtl(text: string): { seconds: number } | { error: string } {
  const match = /^(\d{1,6})([smhd])$/.exec(text.trim());
  const limit = 'a number with a unit (s, m, h or d) of at most 7d, e.g. 24h';
  if (!match) return { error: `--ttl must be ${limit}` };
  const unit = { s: 1, m: 60, h: 3600, d: 86400 }[match[2] as 's' | 'm' | 'h' | 'd'];
  const seconds = Number(match[1]) * unit;
  if (seconds <= 0) return { error: `--ttl must be ${limit}` };
  if (seconds > MAX_PREVIEW_LINK_SECONDS)
    return { error: `--ttl ${text.trim()} is too long: a preview link lasts at most 7 days (7d)` };
  return { seconds };
}

type LinkRow = {
  id: number;
  page_id: number;
  slug: string;
  created_by: string | null;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
};

function toLink(row: LinkRow): PreviewLink {
  return {
    id: Number(row.id),
    pageId: Number(row.page_id),
    slug: row.slug,
    createdBy: row.created_by,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
  };
}

/**
 * A new link to `pageId`'s draft; the token is returned once and never stored. Throws
 * ShareLinkCapError, making nothing, when the page or its maker already has as many open links
 * as the caps allow. The counts and the insert share one write transaction, and write
 * transactions run one at a time across every process (db.ts: BEGIN IMMEDIATE on SQLite, a
 * transaction-scoped advisory lock on PostgreSQL), so a burst of parallel creates, on any
 * number of instances, never passes a cap: no row lock or retry is needed on top.
 */
export async function createPreviewLink(
  db: Database,
  {
    pageId,
    createdBy,
    ttlSeconds,
    now = Date.now(),
    stillSignedIn,
  }: {
    pageId: number;
    createdBy: string | null;
    ttlSeconds: number;
    now?: number;
    /**
     * Asked inside the write, after any reset or removal queued before it has committed:
     * whether the session making the link is still open. A link made by a session that
     * ended meanwhile would outlive the revoking of its maker's links (on PostgreSQL, creates
     * queued behind a password reset's transaction were inserted after it).
     */
    stillSignedIn?: (q: Query) => Promise<boolean>;
  },
): Promise<{ token: string; link: PreviewLink }> {
  if (!Number.isInteger(ttlSeconds) || ttlSeconds <= 0 || ttlSeconds > MAX_PREVIEW_LINK_SECONDS)
    throw new RangeError(`a preview link lasts between 1 second and 7 days, not ${ttlSeconds}s`);
  const token = randomBytes(32).toString('base64url');
  const nowIso = new Date(now).toISOString();
  const [row] = await db.transaction(async (q) => {
    if (stillSignedIn && !(await stillSignedIn(q))) throw new ShareLinkMakerGone();
    const [onPage] = await q<{ open: number | string }>`
      SELECT COUNT(*) AS open FROM preview_links
      WHERE page_id = ${pageId} AND revoked_at IS NULL AND expires_at > ${nowIso}`;
    if (Number(onPage?.open ?? 0) >= MAX_OPEN_LINKS_PER_PAGE)
      throw new ShareLinkCapError('page', MAX_OPEN_LINKS_PER_PAGE);
    if (createdBy !== null) {
      const [byPerson] = await q<{ open: number | string }>`
        SELECT COUNT(*) AS open FROM preview_links
        WHERE created_by = ${createdBy} AND revoked_at IS NULL AND expires_at > ${nowIso}`;
      if (Number(byPerson?.open ?? 0) >= MAX_OPEN_LINKS_PER_PERSON)
        throw new ShareLinkCapError('person', MAX_OPEN_LINKS_PER_PERSON);
    }
    const [made] = await q<{ id: number }>`
      INSERT INTO preview_links (page_id, token_hash, created_by, created_at, expires_at)
      VALUES (${pageId}, ${hashToken(token)}, ${createdBy}, ${nowIso},
              ${new Date(now + ttlSeconds * 1000).toISOString()})
      RETURNING id`;
    if (!made) throw new Error('preview link insert returned no row');
    const rows = await q<LinkRow>`
      SELECT l.id, l.page_id, p.slug, l.created_by, l.created_at, l.expires_at, l.revoked_at
      FROM preview_links l JOIN pages p ON p.id = l.page_id WHERE l.id = ${Number(made.id)}`;
    await recordAudit(q, {
      action: 'share-link.created',
      actor: createdBy === null ? null : { email: createdBy },
      pageId,
      slug: rows[0]?.slug,
      detail: { link: Number(made.id), expiresAt: rows[0]?.expires_at },
    });
    return rows;
  });
  if (!row) throw new Error('preview link insert returned no row');
  return { token, link: toLink(row) };
}

/**
 * Revokes every open link `createdBy` made (an editor's email, as createPreviewLink stored
 * it), inside the caller's transaction: removing an editor, resetting their password or
 * signing them out everywhere ends their links in the same commit. Revoking sets revoked_at
 * for good, so an editor added again with the same email revives none of them. How many.
 */
export async function revokeLinksMadeBy(
  q: Query,
  createdBy: string,
  now = Date.now(),
): Promise<number> {
  const nowIso = new Date(now).toISOString();
  const revoked = await q`
    UPDATE preview_links SET revoked_at = ${nowIso}
    WHERE created_by = ${createdBy} AND revoked_at IS NULL AND expires_at > ${nowIso}
    RETURNING id`;
  return revoked.length;
}

/** What a token opens: its live link, or why not. Never throws on malformed input. */
export async function checkPreviewLink(
  db: Database,
  token: string,
  now = Date.now(),
): Promise<PreviewLinkCheck> {
  if (typeof token !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(token))
    return { ok: false, reason: 'invalid' };
  const [row] = await db.query<LinkRow>`
    SELECT l.id, l.page_id, p.slug, l.created_by, l.created_at, l.expires_at, l.revoked_at
    FROM preview_links l JOIN pages p ON p.id = l.page_id
    WHERE l.token_hash = ${hashToken(token)}`;
  if (!row) return { ok: false, reason: 'invalid' };
  const link = toLink(row);
  if (link.revokedAt !== null) return { ok: false, reason: 'revoked' };
  if (Date.parse(link.expiresAt) <= now) return { ok: false, reason: 'expired' };
  return { ok: true, link };
}

/** Links still open (not revoked, not expired), newest first; one page's, or every page's. */
export async function listPreviewLinks(
  db: Database,
  { pageId, now = Date.now() }: { pageId?: number; now?: number } = {},
): Promise<PreviewLink[]> {
  const nowIso = new Date(now).toISOString();
  // One page's list is what its banner shows: bounded in the query too, so rows made before
  // the caps existed (or by hand) can never make the banner list hundreds.
  const rows =
    pageId === undefined
      ? await db.query<LinkRow>`
          SELECT l.id, l.page_id, p.slug, l.created_by, l.created_at, l.expires_at, l.revoked_at
          FROM preview_links l JOIN pages p ON p.id = l.page_id
          WHERE l.revoked_at IS NULL AND l.expires_at > ${nowIso} ORDER BY l.id DESC`
      : await db.query<LinkRow>`
          SELECT l.id, l.page_id, p.slug, l.created_by, l.created_at, l.expires_at, l.revoked_at
          FROM preview_links l JOIN pages p ON p.id = l.page_id
          WHERE l.revoked_at IS NULL AND l.expires_at > ${nowIso} AND l.page_id = ${pageId}
          ORDER BY l.id DESC LIMIT ${MAX_OPEN_LINKS_PER_PAGE}`;
  return rows.map(toLink);
}

/** Revokes link `id` (of `pageId`, when given); false when there was no such open link. */
export async function revokePreviewLink(
  db: Database,
  id: number,
  { pageId, now = Date.now() }: { pageId?: number; now?: number } = {},
): Promise<boolean> {
  const at = new Date(now).toISOString();
  const revoked = await db.transaction(async (q) => {
    const rows = await (pageId === undefined
      ? q<{ page_id: number | string }>`UPDATE preview_links SET revoked_at = ${at}
          WHERE id = ${id} AND revoked_at IS NULL RETURNING page_id`
      : q<{ page_id: number | string }>`UPDATE preview_links SET revoked_at = ${at}
          WHERE id = ${id} AND revoked_at IS NULL AND page_id = ${pageId} RETURNING page_id`);
    const [row] = rows;
    if (row) {
      const [page] = await q<{ slug: string }>`SELECT slug FROM pages WHERE id = ${row.page_id}`;
      await recordAudit(q, {
        action: 'share-link.revoked',
        pageId: Number(row.page_id),
        slug: page?.slug,
        detail: { link: id },
      });
    }
    return rows;
  });
  return revoked.length > 0;
}

/**
 * The share links of this process's database, for pages and actions (which never open the
 * database themselves); the functions above take a database for the CLI and tests.
 */
export function shareLinks() {
  return {
    create: async (link: {
      pageId: number;
      createdBy: string | null;
      ttlSeconds: number;
      stillSignedIn?: (q: Query) => Promise<boolean>;
    }) => createPreviewLink(await getDatabase(), link),
    check: async (token: string) => checkPreviewLink(await getDatabase(), token),
    listOpen: async (options: { pageId?: number } = {}) =>
      listPreviewLinks(await getDatabase(), options),
    revoke: async (id: number, options: { pageId?: number } = {}) =>
      revokePreviewLink(await getDatabase(), id, options),
  };
}
