// Owns the redirects an editor makes (issue 27): what an address may be sent where, and the
// store's part — adding (one, or a file's worth in one transaction), removing, listing, and the
// lookup a request makes. The rules, each said to the editor in words:
// - from: an address on this site that no page has (a page always wins: a redirect never
//   shadows one) and that is not Folio's own (`/preview`, `/media/…`, the feed…); an old
//   address of a renamed page is already redirected (slug_history), and is refused here;
// - to: a page of this site (`/` or `/<slug>` of a page that exists) or an http(s) address of
//   another site, unless EXTERNAL_REDIRECTS=refuse; never `javascript:` or the like;
// - no chains and so no loops: a redirect to an address that itself redirects, or from an
//   address another redirect leads to, is refused, naming the one to change instead.
// Requests are one primary-key lookup (`findSiteRedirect`); the renamed pages' 301s stay in
// read-model.ts `findRedirect`.
import 'server-only';
import type { Query } from '../data/db';
import { MEDIA_ADDRESS } from '../media/media-refs';
import { getEnv } from '../runtime/env';
import { authorAt } from './authors';
import { ContentError } from './errors';
import { REDIRECT_FROM_MAX, REDIRECT_TO_MAX } from './redirect-limits';
import { HOME_SLUG, isReservedSlug, isValidSlug } from './slugs';
import type { StoreContext } from './store-context';
import { checkWebAddress, noSlashesMessage } from './web-address';

export type RedirectStatus = 301 | 302;
export const REDIRECT_STATUSES: readonly RedirectStatus[] = [301, 302];

export type Redirect = {
  /** The address it answers, normalised (`/old-post`). */
  from: string;
  /** `/`, `/<slug>` or an http(s) URL of another site. */
  to: string;
  status: RedirectStatus;
  createdAt: string;
  createdBy: string | null;
};

/** A redirect as the screen lists it: with why its target is no page now, if it is not. */
export type ListedRedirect = Redirect & {
  unpublishedTarget?: string;
  /** Where its target, a renamed page's or topic's old address, sends visitors on to now. */
  chainedTo?: string;
};

/** An old address of a renamed page, which redirects by itself. */
export type RenameRedirect = { from: string; to: string; renamedAt: string };

export type RedirectInput = { from: string; to: string; status: RedirectStatus };

export { REDIRECT_FROM_MAX, REDIRECT_TO_MAX };
/** How many redirects one file may bring (a site moving from another has a few thousand). */
export const REDIRECT_IMPORT_MAX = 50_000;
/** Rows on one screen of the list. */
export const REDIRECTS_PER_SCREEN = 50;

/** The first segment of addresses Folio answers itself: no redirect can take them. */
const OWN_PREFIXES = ['preview', 'media', 'assets', 'rsc', 'api'];

/**
 * An address as redirects store and look it up: the path alone, percent-encoded as a browser
 * sends it (`/café` is `/caf%c3%a9`), `//` and dot segments resolved, no trailing slash, lower
 * case (addresses of old sites differ in case more often than they mean to).
 */
export function normaliseFromPath(path: string): string {
  let encoded: string;
  try {
    encoded = new URL(path.replace(/\/{2,}/g, '/'), 'http://folio.invalid').pathname;
  } catch {
    encoded = path;
  }
  const trimmed = encoded.length > 1 ? encoded.replace(/\/+$/, '') : encoded;
  return trimmed.toLowerCase();
}

/** Why an address as typed cannot be one (before it is normalised), or null. */
function typedFromProblem(typed: string): string | null {
  if (typed === '') return 'Enter the address to redirect, such as /old-post.';
  if (typed.length > REDIRECT_FROM_MAX)
    return `An address to redirect has at most ${REDIRECT_FROM_MAX} characters.`;
  if (!typed.startsWith('/') || typed.startsWith('//'))
    return 'Enter the address to redirect as a path on this site, starting with /, such as /old-post.';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u0020\u007f?#\\]/.test(typed))
    return 'An address to redirect is a path alone: no spaces, query (?) or fragment (#).';
  if (/%(?![0-9a-f]{2})/i.test(typed) || /%(?:00|2f|5c)/i.test(typed))
    return 'That address has a broken or forbidden %-escape.';
  return null;
}

/** Why a normalised address cannot be a redirect's, or null. Written for the editor. */
function fromProblem(from: string): string | null {
  if (from.length > REDIRECT_FROM_MAX)
    return `An address to redirect has at most ${REDIRECT_FROM_MAX} characters.`;
  if (from === '/' || from === `/${HOME_SLUG}`) return 'The home page cannot be redirected.';
  const first = from.slice(1).split('/')[0] ?? '';
  if (OWN_PREFIXES.includes(first) || isReservedSlug(first) || MEDIA_ADDRESS.test(from))
    return `${from} is one of Folio's own addresses and cannot be redirected.`;
  return null;
}

/** The target normalised, or why it cannot be one. */
function targetOf(to: string): { to: string; external: boolean } | { problem: string } {
  const trimmed = to.trim();
  if (trimmed === '')
    return { problem: 'Enter where to send visitors: /a-page or https://another.site/…' };
  if (trimmed.length > REDIRECT_TO_MAX)
    return { problem: `A target has at most ${REDIRECT_TO_MAX} characters.` };
  if (trimmed.startsWith('/') && !trimmed.startsWith('//')) {
    // A query or fragment was dropped without a word (hostile pass, issue 27: `/about?x=1#y`
    // saved as `/about`): a page of this site is its address alone, so they are refused.
    if (/[?#]/.test(trimmed))
      return {
        problem: `${trimmed} has a query (?) or fragment (#): a redirect sends visitors to a page of this site by its address alone, such as ${normaliseFromPath(trimmed.replace(/[?#].*$/, ''))}.`,
      };
    // A page's address as typed: `/\evil.com`, `/.` or `/a/../b` would be read as another
    // (hostile pass: stored as `/`), so they are refused rather than guessed at.
    if (/[\\\s]|(^|\/)\.{1,2}(\/|$)/.test(trimmed))
      return {
        problem: `${trimmed} is not a page's address: a page of this site is / or /its-slug.`,
      };
    const path = normaliseFromPath(trimmed);
    if (path === '/' || path === `/${HOME_SLUG}`) return { to: '/', external: false };
    const slug = path.slice(1);
    if (!isValidSlug(slug) || isReservedSlug(slug))
      return {
        problem: `${trimmed} is not a page's address: a page of this site is / or /its-slug.`,
      };
    return { to: path, external: false };
  }
  // Another site's address: the one rule for those (web-address.ts), in this screen's words.
  const checked = checkWebAddress(trimmed);
  if (!checked.ok) {
    if (checked.problem === 'scheme')
      return { problem: 'Only http and https addresses can be redirected to.' };
    if (checked.problem === 'credentials')
      return { problem: 'A target address cannot carry a user name or password.' };
    if (checked.problem === 'no-slashes') return { problem: noSlashesMessage(trimmed) };
    return {
      problem:
        'Enter where to send visitors as /a-page on this site or a full https:// address of another.',
    };
  }
  const { url } = checked;
  if (getEnv().EXTERNAL_REDIRECTS === 'refuse')
    return {
      problem:
        'Redirects to other sites are turned off on this site (EXTERNAL_REDIRECTS=refuse): send visitors to one of its pages.',
    };
  return { to: url.href, external: true };
}

/** A redirect's fields checked on their own (no database): normalised, or why not. */
export function checkRedirect(
  input: RedirectInput,
): { ok: true; redirect: RedirectInput } | { ok: false; field: 'from' | 'to'; message: string } {
  const typed = input.from.trim();
  const from = normaliseFromPath(typed);
  const problem = typedFromProblem(typed) ?? fromProblem(from);
  if (problem) return { ok: false, field: 'from', message: problem };
  const target = targetOf(input.to);
  if ('problem' in target) return { ok: false, field: 'to', message: target.problem };
  if (!target.external && target.to === from)
    return { ok: false, field: 'to', message: 'A redirect to its own address would loop.' };
  if (!REDIRECT_STATUSES.includes(input.status))
    return { ok: false, field: 'to', message: 'Choose permanent (301) or temporary (302).' };
  return { ok: true, redirect: { from, to: target.to, status: input.status } };
}

/** The one-slug path of an address, or null (`/2019/05/post` is no page's). */
function slugOfPath(path: string): string | null {
  const slug = path.slice(1);
  return isValidSlug(slug) ? slug : null;
}

/**
 * Whether visitors find a page at `/<slug>`: a published page, or a topic or an author with a
 * published post (issue 27, posts.ts). One query for a request's lookup, a new redirect's
 * target and the screen's mark on a redirect whose target is gone.
 */
async function isPublicAt(q: Query, slug: string): Promise<boolean> {
  const [found] = await q<{ slug: string }>`
    SELECT slug FROM pages WHERE slug = ${slug} AND published_revision_id IS NOT NULL
    UNION ALL
    SELECT t.slug FROM topics t WHERE t.slug = ${slug}
      AND EXISTS (SELECT 1 FROM published_post_topics pt WHERE pt.topic_id = t.id)
    UNION ALL
    SELECT a.slug FROM authors a WHERE a.slug = ${slug}
      AND EXISTS (SELECT 1 FROM published_post_authors pa WHERE pa.author_id = a.id)`;
  return found !== undefined;
}

/**
 * Where this site's `to` now sends visitors on to, when it is the old address of a renamed page
 * or topic: the redirect then goes through two (hostile pass 27: /old12 → /cafe → /cafe-new,
 * unflagged). The screen says so and names the address to point it at.
 */
async function chainedTargetOf(q: Query, to: string): Promise<string | null> {
  if (!to.startsWith('/') || to === '/') return null;
  const slug = to.slice(1);
  if (await isPublicAt(q, slug)) return null;
  const [row] = await q<{ slug: string }>`
    SELECT p.slug FROM slug_history h JOIN pages p ON p.id = h.page_id WHERE h.old_slug = ${slug}
    UNION ALL
    SELECT t.slug FROM topic_slug_history h JOIN topics t ON t.id = h.topic_id
    WHERE h.old_slug = ${slug}`;
  return row ? `/${row.slug}` : null;
}

/** Why visitors sent to this site's `to` would find no page now, or null when they would. */
async function unpublishedTargetOf(q: Query, to: string): Promise<string | null> {
  if (!to.startsWith('/') || to === '/') return null;
  const slug = to.slice(1);
  if (await isPublicAt(q, slug)) return null;
  const [topic] = await q<{ name: string }>`SELECT name FROM topics WHERE slug = ${slug}`;
  if (topic)
    return `${to} is not published yet: the topic “${topic.name}” has no published post, and visitors sent there would land on a 404. Publish a post with it first, or redirect elsewhere.`;
  if (await authorAt(q, slug))
    return `${to} is not published yet: its author has no published post, and visitors sent there would land on a 404. Publish one of their posts first, or redirect elsewhere.`;
  const [draft] = await q<{ slug: string }>`SELECT slug FROM pages WHERE slug = ${slug}`;
  if (draft)
    return `${to} is not published yet: it is only a draft, and visitors sent there would land on a 404. Publish it first, or redirect elsewhere.`;
  // An old address of a renamed page or topic sends visitors on by itself.
  const [renamed] = await q<{ n: number }>`
    SELECT 1 AS n FROM slug_history WHERE old_slug = ${slug}
    UNION ALL
    SELECT 1 AS n FROM topic_slug_history WHERE old_slug = ${slug}`;
  if (renamed) return null;
  return `There is no page at ${to} now: visitors sent there land on a 404. Redirect elsewhere.`;
}

/**
 * An author's old address is theirs only until an Editor gives it a redirect (third hostile
 * pass, M3): an Author could walk their profile through free addresses and keep each one, and
 * an Editor's redirect added there was listed but never followed. The Editor's wins.
 */
async function releaseAuthorOldAddress(q: Query, redirect: RedirectInput): Promise<void> {
  const slug = slugOfPath(redirect.from);
  if (slug !== null) await q`DELETE FROM author_slug_history WHERE old_slug = ${slug}`;
}

/**
 * Why this redirect cannot join the redirects as they are in `q`'s transaction, or null: a page
 * at its address, its address an old one of a renamed page, its target no page or itself
 * redirected, or another redirect leading to its address (a chain).
 */
async function conflictOf(
  q: Query,
  redirect: RedirectInput,
): Promise<{ field: 'from' | 'to'; message: string } | null> {
  const from = (message: string) => ({ field: 'from' as const, message });
  const to = (message: string) => ({ field: 'to' as const, message });
  const fromSlug = slugOfPath(redirect.from);
  if (fromSlug !== null) {
    const [page] = await q<{ slug: string }>`SELECT slug FROM pages WHERE slug = ${fromSlug}`;
    if (page)
      return from(
        `A page is at ${redirect.from}: a redirect there would never be followed. Rename or delete the page first.`,
      );
    if (await authorAt(q, fromSlug))
      return from(
        `An author’s page is at ${redirect.from}: a redirect there would never be followed.`,
      );
    const [topic] = await q<{ name: string }>`SELECT name FROM topics WHERE slug = ${fromSlug}`;
    if (topic)
      return from(
        `The topic “${topic.name}” is at ${redirect.from}: a redirect there would never be followed.`,
      );
    const [oldTopic] = await q<{ slug: string }>`
      SELECT t.slug FROM topic_slug_history h JOIN topics t ON t.id = h.topic_id
      WHERE h.old_slug = ${fromSlug}`;
    if (oldTopic)
      return from(
        `${redirect.from} is an old address of the topic at /${oldTopic.slug}, and already sends visitors there.`,
      );
    const [renamed] = await q<{ slug: string }>`
      SELECT p.slug FROM slug_history h JOIN pages p ON p.id = h.page_id
      WHERE h.old_slug = ${fromSlug}`;
    if (renamed)
      return from(
        `${redirect.from} is an old address of /${renamed.slug}, and already sends visitors there.`,
      );
  }
  const [leading] = await q<{ from_path: string }>`
    SELECT from_path FROM redirects WHERE target = ${redirect.from} AND from_path <> ${redirect.from}
    LIMIT 1`;
  if (leading)
    return from(
      `${leading.from_path} redirects to ${redirect.from}, so this would make a chain: point ${leading.from_path} where this should go instead, or remove it first.`,
    );
  if (!redirect.to.startsWith('/')) return null;
  const [onward] = await q<{ target: string }>`
    SELECT target FROM redirects WHERE from_path = ${redirect.to} AND from_path <> ${redirect.from}`;
  if (onward)
    return to(
      `${redirect.to} itself redirects to ${onward.target}: redirect straight there instead.`,
    );
  if (redirect.to === '/') return null;
  const toSlug = redirect.to.slice(1);
  const [target] = await q<{ slug: string }>`SELECT slug FROM pages WHERE slug = ${toSlug}`;
  const [topic] = await q<{ id: number }>`SELECT id FROM topics WHERE slug = ${toSlug}`;
  if (target || topic || (await authorAt(q, toSlug))) {
    // There, but only as a draft (or a topic, an author, with no published post yet).
    const unpublished = await unpublishedTargetOf(q, redirect.to);
    return unpublished ? to(unpublished) : null;
  }
  const [renamed] = await q<{ slug: string }>`
    SELECT p.slug FROM slug_history h JOIN pages p ON p.id = h.page_id
    WHERE h.old_slug = ${toSlug}`;
  if (renamed)
    return to(`${redirect.to} was renamed to /${renamed.slug}: redirect straight there instead.`);
  return to(`There is no page at ${redirect.to}: create it first, or check the address.`);
}

/**
 * Refuses `/<slug>` to someone who may not manage redirects (issue 28, hostile pass 2) when an
 * editor's redirect answers visitors there now: a page made, renamed or published there — or an
 * author's profile moved there — would override it, which is the redirect's managers' call.
 * The caller asks `can(person, 'redirect.edit')` and calls this only when it says no.
 */
export async function refuseRedirectSource(q: Query, slug: string): Promise<void> {
  const from = normaliseFromPath(`/${slug}`);
  const [row] = await q<{ target: string }>`SELECT target FROM redirects WHERE from_path = ${from}`;
  // A page visitors see there already wins over the redirect (findSiteRedirect): nothing taken.
  if (!row || (await isPublicAt(q, slug))) return;
  throw new ContentError(
    'redirect-source',
    `${from} is a redirect to ${row.target}; someone who manages redirects must remove it first. Choose another address, or ask an Editor.`,
  );
}

const rowOf = (row: {
  from_path: string;
  target: string;
  status: number | string;
  created_at: string;
  created_by: string | null;
}): Redirect => ({
  from: row.from_path,
  to: row.target,
  status: Number(row.status) === 302 ? 302 : 301,
  createdAt: row.created_at,
  createdBy: row.created_by,
});

/** A refused redirect: the editor's words, and which field they are about. */
export class RedirectError extends ContentError {
  constructor(
    readonly field: 'from' | 'to',
    message: string,
    code: 'invalid' | 'conflict' = 'invalid',
  ) {
    super(code, message);
  }
}

/** A redirects file's line that could not be taken, for the CLI and the screen. */
export type ImportProblem = { line: number; message: string };

export function redirectsStore({ read, write, now }: StoreContext) {
  return {
    /**
     * Adds a redirect. A ContentError 'invalid' with the editor's words when the rules above
     * refuse it, 'conflict' when one from that address exists (`replace` replaces it).
     */
    async addRedirect(
      input: RedirectInput,
      { editor = null, replace = false }: { editor?: string | null; replace?: boolean } = {},
    ): Promise<Redirect> {
      const checked = checkRedirect(input);
      if (!checked.ok) throw new RedirectError(checked.field, checked.message);
      const redirect = checked.redirect;
      return write(async (q) => {
        const [existing] = await q<{ target: string }>`
          SELECT target FROM redirects WHERE from_path = ${redirect.from}`;
        if (existing && !replace)
          throw new RedirectError(
            'from',
            `${redirect.from} already redirects to ${existing.target}: remove that redirect first.`,
            'conflict',
          );
        const conflict = await conflictOf(q, redirect);
        if (conflict) throw new RedirectError(conflict.field, conflict.message);
        const at = now().toISOString();
        await releaseAuthorOldAddress(q, redirect);
        await q`DELETE FROM redirects WHERE from_path = ${redirect.from}`;
        await q`INSERT INTO redirects (from_path, target, status, created_at, created_by)
                VALUES (${redirect.from}, ${redirect.to}, ${redirect.status}, ${at}, ${editor})`;
        return { ...redirect, createdAt: at, createdBy: editor };
      });
    },

    /**
     * Adds or replaces a file's redirects in one transaction: all of them or, when any line is
     * refused, none, with every refused line named. Lines are checked in order against the
     * redirects as they stand with the earlier lines in.
     */
    async importRedirects(
      lines: readonly (RedirectInput & { line: number })[],
      { editor = null }: { editor?: string | null } = {},
    ): Promise<{ added: number; problems: ImportProblem[] }> {
      if (lines.length > REDIRECT_IMPORT_MAX)
        return {
          added: 0,
          problems: [
            {
              line: 0,
              message: `At most ${REDIRECT_IMPORT_MAX} redirects per file; this one holds ${lines.length}: split it in two or more.`,
            },
          ],
        };
      const problems: ImportProblem[] = [];
      const checked: (RedirectInput & { line: number })[] = [];
      // Two lines for one address: which was meant? (hostile pass: the last won, silently.)
      const lineOf = new Map<string, number>();
      for (const each of lines) {
        const result = checkRedirect(each);
        if (!result.ok) {
          problems.push({ line: each.line, message: result.message });
          continue;
        }
        const earlier = lineOf.get(result.redirect.from);
        if (earlier !== undefined) {
          problems.push({
            line: each.line,
            message: `${result.redirect.from} is redirected on line ${earlier} already.`,
          });
          continue;
        }
        lineOf.set(result.redirect.from, each.line);
        checked.push({ ...result.redirect, line: each.line });
      }
      if (problems.length > 0) return { added: 0, problems };
      const refused = new Error('refused');
      try {
        return await write(async (q) => {
          const at = now().toISOString();
          let added = 0;
          for (const redirect of checked) {
            // A line as it already stands is kept as it is: a file exported here imports back.
            const [same] = await q<{ n: number }>`
              SELECT 1 AS n FROM redirects WHERE from_path = ${redirect.from}
                AND target = ${redirect.to} AND status = ${redirect.status}`;
            if (same) continue;
            await q`DELETE FROM redirects WHERE from_path = ${redirect.from}`;
            const conflict = await conflictOf(q, redirect);
            if (conflict) {
              problems.push({ line: redirect.line, message: conflict.message });
              if (problems.length >= 20) break;
              continue;
            }
            await releaseAuthorOldAddress(q, redirect);
            await q`INSERT INTO redirects (from_path, target, status, created_at, created_by)
                    VALUES (${redirect.from}, ${redirect.to}, ${redirect.status}, ${at}, ${editor})`;
            added += 1;
          }
          // Nothing of a refused file is kept: the transaction is rolled back.
          if (problems.length > 0) throw refused;
          return { added, problems };
        });
      } catch (error) {
        if (error === refused) return { added: 0, problems };
        throw error;
      }
    },

    /** Removes the redirect from `from`; false when there was none. */
    async removeRedirect(from: string): Promise<boolean> {
      const path = normaliseFromPath(from.trim());
      return write(async (q) => {
        const gone = await q<{ from_path: string }>`
          DELETE FROM redirects WHERE from_path = ${path} RETURNING from_path`;
        return gone.length > 0;
      });
    },

    /**
     * One screen of redirects in address order, after `after` (keyset), narrowed to those
     * whose address or target contains `find`; and how many there are in all.
     */
    async listRedirects({
      find = '',
      after = null,
      limit = REDIRECTS_PER_SCREEN,
    }: {
      find?: string;
      after?: string | null;
      limit?: number;
    } = {}): Promise<{ rows: ListedRedirect[]; next: string | null; total: number }> {
      const like = `%${find.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const start = after ?? '';
      return read(async (q) => {
        const rows = await q<Parameters<typeof rowOf>[0]>`
          SELECT from_path, target, status, created_at, created_by FROM redirects
          WHERE from_path > ${start}
            AND (${find === ''} OR from_path LIKE ${like} ESCAPE '\\'
                 OR LOWER(target) LIKE ${like} ESCAPE '\\')
          ORDER BY from_path LIMIT ${limit + 1}`;
        const [count] = await q<{ n: number | string }>`SELECT COUNT(*) AS n FROM redirects`;
        const shown: ListedRedirect[] = [];
        for (const row of rows.slice(0, limit)) {
          const redirect: ListedRedirect = rowOf(row);
          // Its target unpublished since: visitors sent there land on a 404 (the screen says).
          const unpublished = await unpublishedTargetOf(q, redirect.to);
          if (unpublished) redirect.unpublishedTarget = unpublished;
          const chained = await chainedTargetOf(q, redirect.to);
          if (chained) redirect.chainedTo = chained;
          shown.push(redirect);
        }
        return {
          rows: shown,
          next: rows.length > limit ? (shown.at(-1)?.from ?? null) : null,
          total: Number(count?.n ?? 0),
        };
      });
    },

    /** Every redirect in address order, `batch` rows at a time (the CLI's export). */
    async *eachRedirect(batch = 1000): AsyncGenerator<Redirect> {
      let after = '';
      for (;;) {
        const rows = await read(
          (q) => q<Parameters<typeof rowOf>[0]>`
            SELECT from_path, target, status, created_at, created_by FROM redirects
            WHERE from_path > ${after} ORDER BY from_path LIMIT ${batch}`,
        );
        for (const row of rows) yield rowOf(row);
        const last = rows.at(-1);
        if (!last || rows.length < batch) return;
        after = last.from_path;
      }
    },

    /** The newest renames' redirects (old address → the page's or topic's address now). */
    async listRenameRedirects(limit = REDIRECTS_PER_SCREEN): Promise<RenameRedirect[]> {
      const rows = await read(
        // Pages' and topics' old addresses alike (hostile pass: topics' were not listed).
        (q) => q<{ old_slug: string; slug: string; renamed_at: string }>`
          SELECT old_slug, slug, renamed_at FROM (
            SELECT h.old_slug, p.slug, h.renamed_at FROM slug_history h
            JOIN pages p ON p.id = h.page_id
            UNION ALL
            SELECT h.old_slug, t.slug, h.renamed_at FROM topic_slug_history h
            JOIN topics t ON t.id = h.topic_id
          ) renamed
          ORDER BY renamed_at DESC LIMIT ${limit}`,
      );
      return rows.map((row) => ({
        from: `/${row.old_slug}`,
        to: row.slug === HOME_SLUG ? '/' : `/${row.slug}`,
        renamedAt: row.renamed_at,
      }));
    },

    /**
     * Where a visitor asking for `path` is sent by an editor's redirect, or null: none, or a
     * page published (or a topic with published posts) at that address now (a page wins), or a redirect to another site on a
     * site that now refuses them.
     */
    async findSiteRedirect(path: string): Promise<{ location: string; status: number } | null> {
      const from = normaliseFromPath(path);
      if (from.length > REDIRECT_FROM_MAX) return null;
      const [row] = await read(
        (q) => q<{ target: string; status: number | string }>`
          SELECT target, status FROM redirects WHERE from_path = ${from}`,
      );
      if (!row) return null;
      if (!row.target.startsWith('/') && getEnv().EXTERNAL_REDIRECTS === 'refuse') return null;
      const slug = slugOfPath(from);
      // A page visitors can see at the address wins (a topic or an author with posts too).
      if (slug !== null && (await read((q) => isPublicAt(q, slug)))) return null;
      return { location: row.target, status: Number(row.status) === 302 ? 302 : 301 };
    },
  };
}
