// Owns pages: published revisions, drafts, renames, and the one query that reads both sides.
import 'server-only';
import { z } from 'zod';
import { contentVersionOf } from '../data/content-version';
import { type Database, getDatabase, type Query, sqlTemplate } from '../data/db';
import { isDatabaseBusy, isDatabaseUnavailable } from '../data/db-errors';
import { renderMarkdown } from '../markdown/markdown';
import {
  mediaByHashes,
  mediaHashesIn,
  missingMediaIn,
  missingMediaMessage,
  refreshPictureSources,
} from '../media/media-refs';
import { traced } from '../observability/spans';
import { processSingleton } from '../runtime/process-singleton';
import { FOOTER_MAX, SITE_TITLE_MAX, TAGLINE_MAX } from './field-limits';
import { type PageFields, pageFieldsSchema } from './page-fields';
import { publishTimeProblem, unreadableTimeMessage } from './publish-time';
import { HOME_SLUG, isValidSlug, validateNewSlug } from './slugs';

export { type PageFields, pageFieldsSchema };

export type PageState = 'published' | 'draft-only' | 'changed';

/** What happened to a page last: the dashboard shows it, and a stale save says it. */
export type PageChange =
  | 'saved'
  | 'published'
  | 'unpublished'
  | 'discarded'
  | 'renamed'
  | 'restored';

export type PageView = {
  id: number;
  slug: string;
  title: string;
  summary: string;
  bodyMarkdown: string;
  bodyHtml: string;
  /** For a public read this is never 'changed' or 'draft-only': drafts are invisible there. */
  state: PageState;
  showingDraft: boolean;
  version: number;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
  /** When the page was first published (its oldest revision), or null if never. */
  firstPublishedAt: string | null;
  draftUpdatedAt: string | null;
  draftUpdatedBy: string | null;
  /** Who changed the page last (any change: a save, a publish, a discard…), and how. */
  updatedBy: string | null;
  lastChange: PageChange;
};

export type PageSummary = {
  slug: string;
  title: string;
  summary: string;
  publishedAt: string | null;
};
/** A published page as a feed shows it: its published text and when it was first published. */
export type FeedEntry = {
  id: number;
  slug: string;
  title: string;
  summary: string;
  bodyHtml: string;
  firstPublishedAt: string;
  publishedAt: string;
};

export type PageListing = {
  id: number;
  slug: string;
  title: string;
  state: PageState;
  updatedAt: string;
  updatedBy: string | null;
  lastChange: PageChange;
  publishedAt: string | null;
  /** When a schedule will publish the page's draft (UTC ISO), or null. */
  publishAt: string | null;
  /** When a schedule that did not publish was due (MissedSchedule), or null. */
  missedPublishAt: string | null;
};

/** A page's pending scheduled publish: when, and on whose behalf. */
export type Schedule = { publishAt: string; scheduledBy: string | null };

/** A schedule that came due and did not publish: when it was for, whose, and why not. */
export type MissedSchedule = Schedule & { reason: string };

/** A page a schedule published (for the log and the CLI). */
export type ScheduledPublish = {
  slug: string;
  publishAt: string;
  scheduledBy: string | null;
  /** Why it was not published after all (its schedule is cleared; the draft stays). */
  refused?: string;
};

/** A published version of a page, as kept in its history. */
export type Revision = {
  id: number;
  pageId: number;
  title: string;
  summary: string;
  bodyMarkdown: string;
  bodyHtml: string;
  publishedAt: string;
  publishedBy: string | null;
  /** True when a schedule published it (on behalf of `publishedBy`). */
  bySchedule: boolean;
  /** The revision visitors see now. */
  current: boolean;
};

/** The site's own settings, edited in preview. `navigation` null: every published page. */
export type SiteSettings = {
  title: string;
  tagline: string;
  footer: string;
  navigation: readonly number[] | null;
};

export type NavigationLink = { slug: string; title: string };

export type ContentErrorCode =
  | 'not-found'
  | 'conflict'
  | 'invalid-slug'
  | 'slug-taken'
  | 'invalid'
  /** The text names an image the media library does not have: not published. */
  | 'missing-media'
  | 'replaced'
  | 'busy'
  | 'unavailable';

// The brand survives module copies (the CLI and a test load this module on their own), where
// `instanceof` would not: code that asks whether an error is expected uses isContentError.
const CONTENT_ERROR = Symbol.for('folio.content-error');

/** An expected failure with a message fit for an editor; never reported as a bug. */
export class ContentError extends Error {
  readonly [CONTENT_ERROR] = true;
  constructor(
    readonly code: ContentErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ContentError';
  }
}

export function isContentError(error: unknown): error is ContentError {
  return (error as { [CONTENT_ERROR]?: unknown } | null)?.[CONTENT_ERROR] === true;
}

export type SaveResult =
  | { ok: true; version: number; pageId: number; slug: string }
  | { ok: false; reason: 'conflict'; current: PageView | null };

/** What an editor's form says it acts on: the page it was made for, and the version it showed. */
export type Expectation = { pageId?: number; version?: number };

type PageRow = {
  id: number;
  slug: string;
  version: number;
  created_at: string;
  updated_at: string;
  published_at: string | null;
  first_published_at: string | null;
  /** 0/1 on SQLite, a boolean on PostgreSQL. */
  showing_draft: number | boolean;
  state: PageState;
  title: string;
  summary: string;
  body: string;
  body_html: string;
  draft_updated_at: string | null;
  draft_updated_by: string | null;
  updated_by: string | null;
  last_change: PageChange;
};

// The one query for both sides. With draft false the drafts join matches nothing, so no draft
// column can reach a public read, and the WHERE clause admits published pages only.
const PAGE_SELECT = `
SELECT p.id, p.slug, p.version, p.created_at, p.updated_at, r.published_at,
  (SELECT MIN(f.published_at) FROM revisions f WHERE f.page_id = p.id) AS first_published_at,
  (d.page_id IS NOT NULL) AS showing_draft,
  CASE WHEN p.published_revision_id IS NULL THEN 'draft-only'
       WHEN d.page_id IS NOT NULL THEN 'changed' ELSE 'published' END AS state,
  COALESCE(d.title, r.title) AS title,
  COALESCE(d.summary, r.summary) AS summary,
  COALESCE(d.body, r.body) AS body,
  COALESCE(d.body_html, r.body_html) AS body_html,
  d.updated_at AS draft_updated_at,
  d.updated_by AS draft_updated_by,
  p.updated_by, p.last_change
FROM pages p
LEFT JOIN revisions r ON r.id = p.published_revision_id
LEFT JOIN drafts d ON d.page_id = p.id AND `;
// Values: draft, slug, draft.
const PAGE_BY_SLUG = sqlTemplate([
  PAGE_SELECT,
  '\nWHERE p.slug = ',
  ' AND (',
  ' OR p.published_revision_id IS NOT NULL)',
]);
// Editors only: the page a form was made for, by id, whatever its slug is now. Values: id.
const PAGE_BY_ID = sqlTemplate([`${PAGE_SELECT}TRUE\nWHERE p.id = `, '']);

function toView(row: PageRow): PageView {
  return {
    id: Number(row.id),
    slug: row.slug,
    title: row.title,
    summary: row.summary,
    bodyMarkdown: row.body,
    bodyHtml: row.body_html,
    state: row.state,
    showingDraft: Boolean(row.showing_draft),
    version: Number(row.version),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    publishedAt: row.published_at,
    firstPublishedAt: row.first_published_at,
    draftUpdatedAt: row.draft_updated_at,
    draftUpdatedBy: row.draft_updated_by,
    updatedBy: row.updated_by,
    lastChange: row.last_change,
  };
}

type RevisionRow = {
  id: number;
  page_id: number;
  title: string;
  summary: string;
  body: string;
  body_html: string;
  published_at: string;
  published_by: string | null;
  published_via: string | null;
  current: number | boolean | null;
};

function toRevision(row: RevisionRow): Revision {
  return {
    id: Number(row.id),
    pageId: Number(row.page_id),
    title: row.title,
    summary: row.summary,
    bodyMarkdown: row.body,
    bodyHtml: row.body_html,
    publishedAt: row.published_at,
    publishedBy: row.published_by,
    bySchedule: row.published_via === 'schedule',
    current: Boolean(row.current),
  };
}

/** The stored navigation (a JSON list of page ids), or null for "every published page". */
function parseNavigation(value: string | undefined): readonly number[] | null {
  if (value === undefined) return null;
  try {
    const ids: unknown = JSON.parse(value);
    return Array.isArray(ids) ? ids.filter((id): id is number => Number.isSafeInteger(id)) : null;
  } catch {
    return null;
  }
}

export const siteSettingsSchema = z.object({
  title: z
    .string()
    .trim()
    .min(1, 'Enter the site title.')
    .max(SITE_TITLE_MAX, `Use at most ${SITE_TITLE_MAX} characters.`),
  tagline: z.string().trim().max(TAGLINE_MAX, `Use at most ${TAGLINE_MAX} characters.`),
  footer: z.string().trim().max(FOOTER_MAX, `Use at most ${FOOTER_MAX} characters.`),
  navigation: z.array(z.number().int().positive()).max(20, 'Twenty links at most.').nullable(),
});

export type ContentStore = ReturnType<typeof createContentStore>;

export const BUSY_MESSAGE =
  'Folio is busy saving other changes. Nothing was saved; try again in a moment (your text is kept).';
export const UNAVAILABLE_MESSAGE =
  'Folio cannot reach its database right now. Nothing was saved; try again in a moment (your text is kept).';

type PageRowRef = {
  id: number;
  slug: string;
  version: number;
  published_revision_id: number | null;
};

function toRef(row: PageRowRef | undefined): PageRowRef | null {
  return row
    ? {
        id: Number(row.id),
        slug: row.slug,
        version: Number(row.version),
        published_revision_id:
          row.published_revision_id === null ? null : Number(row.published_revision_id),
      }
    : null;
}

async function pageRowBySlug(q: Query, slug: string): Promise<PageRowRef | null> {
  if (!isValidSlug(slug)) return null;
  const [row] = await q<PageRowRef>`
    SELECT id, slug, version, published_revision_id FROM pages WHERE slug = ${slug}`;
  return toRef(row);
}

async function pageRowById(q: Query, id: number): Promise<PageRowRef | null> {
  const [row] = await q<PageRowRef>`
    SELECT id, slug, version, published_revision_id FROM pages WHERE id = ${id}`;
  return toRef(row);
}

async function pageById(q: Query, id: number): Promise<PageView | null> {
  const [row] = await q<PageRow>(PAGE_BY_ID, id);
  return row ? toView(row) : null;
}

function parseFields(input: PageFields): PageFields {
  const parsed = pageFieldsSchema.safeParse(input);
  if (!parsed.success) {
    throw new ContentError('invalid', parsed.error.issues.map((issue) => issue.message).join(' '));
  }
  return parsed.data;
}

/** Fields ready to store: validated, and the Markdown rendered once (outside any transaction). */
type StoredFields = PageFields & { bodyHtml: string };

async function prepareFields(input: PageFields, q: Query): Promise<StoredFields> {
  const fields = parseFields(input);
  // Uploaded images it names render as <picture> with their sizes, known only from the store.
  const media = await mediaByHashes(q, mediaHashesIn(fields.body));
  return { ...fields, bodyHtml: await renderMarkdown(fields.body, { media }) };
}

/**
 * The page store over a database (or a function that opens it: the process's store is made
 * before its database is open). Every method is async; writes are transactions that either commit
 * whole or leave nothing, and expected refusals are ContentErrors.
 */
export function createContentStore(
  database: Database | (() => Promise<Database>),
  now: () => Date = () => new Date(),
) {
  const opened = () => (typeof database === 'function' ? database() : Promise.resolve(database));

  /**
   * A write transaction. Its work may bump the content version (`changed`); the new version
   * is announced after the commit. A database locked past the busy timeout (SQLite) or out of
   * reach (PostgreSQL) is a ContentError with words for the editor.
   */
  async function write<T>(
    work: (q: Query, changed: () => Promise<void>) => Promise<T>,
  ): Promise<T> {
    const db = await opened();
    const version = contentVersionOf(db);
    let bumped: number | null = null;
    try {
      const result = await db.transaction((q) =>
        work(q, async () => {
          bumped ??= await version.bump(q);
        }),
      );
      if (bumped !== null) await version.committed(bumped);
      return result;
    } catch (error) {
      if (isDatabaseBusy(error)) throw new ContentError('busy', BUSY_MESSAGE);
      if (isDatabaseUnavailable(error)) throw new ContentError('unavailable', UNAVAILABLE_MESSAGE);
      throw error;
    }
  }

  async function read<T>(work: (q: Query) => Promise<T>): Promise<T> {
    return work((await opened()).query);
  }

  /**
   * The page at `slug`, as the caller expects it: a form says which page it was made for
   * (`expected.pageId`) and which version it showed (`expected.version`). A page that is gone,
   * replaced by another at the same slug, or changed since, is refused with nothing written.
   */
  async function requirePage(q: Query, slug: string, expected: Expectation = {}) {
    const row = await pageRowBySlug(q, slug);
    if (expected.pageId !== undefined && row?.id !== expected.pageId) {
      throw new ContentError(
        'replaced',
        row
          ? `The page you opened is no longer at /${slug}: another page has that address now. Nothing was changed.`
          : 'The page you opened was deleted or renamed meanwhile. Nothing was changed.',
      );
    }
    if (!row) throw new ContentError('not-found', `There is no page “${slug}”.`);
    if (expected.version !== undefined && row.version !== expected.version) {
      throw new ContentError(
        'conflict',
        'The page changed since you opened it; review the latest version first.',
      );
    }
    return row;
  }

  /** A page id never used before, even by a deleted page (inside the caller's transaction). */
  async function nextPageId(q: Query): Promise<number> {
    const [row] = await q<{ value: string }>`
      UPDATE settings SET value = CAST(CAST(value AS BIGINT) + 1 AS TEXT)
      WHERE key = 'last_page_id' RETURNING value`;
    if (!row) throw new Error('settings has no last_page_id (run the migrations)');
    return Number(row.value);
  }

  /** Moves a page to `newSlug` inside the caller's transaction; old slugs then redirect. */
  async function moveSlug(q: Query, page: PageRowRef, newSlug: string, at: string) {
    if (page.slug === newSlug) return false;
    if (page.slug === HOME_SLUG)
      throw new ContentError('invalid-slug', 'The home page keeps its slug.');
    const problem = validateNewSlug(newSlug);
    if (problem) throw new ContentError('invalid-slug', problem);
    if (await pageRowBySlug(q, newSlug))
      throw new ContentError('slug-taken', `A page “${newSlug}” already exists.`);
    await q`DELETE FROM slug_history WHERE old_slug = ${newSlug}`;
    await q`UPDATE pages SET slug = ${newSlug} WHERE id = ${page.id}`;
    await q`
      INSERT INTO slug_history (old_slug, page_id, renamed_at) VALUES (${page.slug}, ${page.id}, ${at})
      ON CONFLICT (old_slug) DO UPDATE SET page_id = excluded.page_id, renamed_at = excluded.renamed_at`;
    return true;
  }

  /** A page changed: its version moves on, with when, by whom and how. */
  async function touch(
    q: Query,
    pageId: number,
    at: string,
    change: PageChange,
    editor: string | null,
  ) {
    await q`UPDATE pages SET version = version + 1, updated_at = ${at}, updated_by = ${editor},
            last_change = ${change} WHERE id = ${pageId}`;
  }

  /**
   * Drops the page's draft, and with it any pending schedule: a schedule publishes the draft,
   * and one left without a draft would publish whatever is saved next (hostile pass, issue 14).
   */
  async function dropDraft(q: Query, pageId: number) {
    await q`DELETE FROM drafts WHERE page_id = ${pageId}`;
    await q`UPDATE pages SET publish_at = NULL, scheduled_by = NULL WHERE id = ${pageId}`;
    await forgetMissedSchedule(q, pageId);
  }

  /**
   * The notice of a schedule that did not publish has been answered (or dismissed): any notice,
   * or only the one for the schedule due at `dueAt`. True when one was cleared.
   */
  async function forgetMissedSchedule(q: Query, pageId: number, dueAt?: string) {
    const cleared =
      dueAt === undefined
        ? await q`UPDATE pages SET missed_publish_at = NULL, missed_scheduled_by = NULL,
                  missed_reason = NULL WHERE id = ${pageId} AND missed_publish_at IS NOT NULL
                  RETURNING id`
        : await q`UPDATE pages SET missed_publish_at = NULL, missed_scheduled_by = NULL,
                  missed_reason = NULL WHERE id = ${pageId} AND missed_publish_at = ${dueAt}
                  RETURNING id`;
    return cleared.length > 0;
  }

  /** Whether the page's draft says exactly what its published revision says. */
  async function draftMatchesPublished(q: Query, pageId: number): Promise<boolean> {
    const [row] = await q<{ same: number | boolean }>`
      SELECT (d.title = r.title AND d.summary = r.summary AND d.body = r.body) AS same
      FROM drafts d JOIN pages p ON p.id = d.page_id
      JOIN revisions r ON r.id = p.published_revision_id
      WHERE d.page_id = ${pageId}`;
    return Boolean(row?.same);
  }

  async function writeDraft(
    q: Query,
    pageId: number,
    fields: StoredFields,
    editor: string | null,
    at: string,
  ) {
    await q`
      INSERT INTO drafts (page_id, title, summary, body, body_html, updated_at, updated_by)
      VALUES (${pageId}, ${fields.title}, ${fields.summary}, ${fields.body}, ${fields.bodyHtml}, ${at}, ${editor})
      ON CONFLICT (page_id) DO UPDATE SET title = excluded.title, summary = excluded.summary,
        body = excluded.body, body_html = excluded.body_html, updated_at = excluded.updated_at,
        updated_by = excluded.updated_by`;
  }

  type SaveInput = {
    slug: string;
    pageId?: number;
    expectedVersion: number | null;
    editor: string | null;
  };

  async function saveDraftIn(
    q: Query,
    changed: () => Promise<void>,
    input: SaveInput,
    fields: StoredFields,
  ): Promise<SaveResult> {
    const at = now().toISOString();
    if (input.expectedVersion === null) {
      if (await pageRowBySlug(q, input.slug))
        throw new ContentError('slug-taken', `A page “${input.slug}” already exists.`);
      const problem = validateNewSlug(input.slug);
      if (problem) throw new ContentError('invalid-slug', problem);
      const id = await nextPageId(q);
      await q`INSERT INTO pages (id, slug, created_at, updated_at, updated_by, last_change)
              VALUES (${id}, ${input.slug}, ${at}, ${at}, ${input.editor}, 'saved')`;
      await writeDraft(q, id, fields, input.editor, at);
      return { ok: true, version: 1, pageId: id, slug: input.slug };
    }
    const existing =
      input.pageId !== undefined
        ? await pageRowById(q, input.pageId)
        : await pageRowBySlug(q, input.slug);
    if (!existing) {
      throw new ContentError(
        'not-found',
        input.pageId !== undefined
          ? 'This page was deleted meanwhile; nothing was saved. Your text is kept here.'
          : `There is no page “${input.slug}”.`,
      );
    }
    if (existing.version !== input.expectedVersion) {
      return { ok: false, reason: 'conflict', current: await pageById(q, existing.id) };
    }
    const renamed = await moveSlug(q, existing, input.slug, at);
    if (renamed) await changed();
    await writeDraft(q, existing.id, fields, input.editor, at);
    // A draft that says what is published is no draft: a rename alone went live, and the page
    // is "published", not "published with a newer draft".
    const nothingNew = await draftMatchesPublished(q, existing.id);
    if (nothingNew) await dropDraft(q, existing.id);
    await touch(q, existing.id, at, renamed && nothingNew ? 'renamed' : 'saved', input.editor);
    return { ok: true, version: existing.version + 1, pageId: existing.id, slug: input.slug };
  }

  async function publishIn(
    q: Query,
    changed: () => Promise<void>,
    slug: string,
    {
      editor = null,
      via = null,
      allowMissingMedia = false,
      ...expected
    }: {
      editor?: string | null;
      via?: 'schedule' | null;
      /** An import: its images travel separately (by backup or `db copy`), maybe later. */
      allowMissingMedia?: boolean;
    } & Expectation,
  ): Promise<number> {
    const page = await requirePage(q, slug, expected);
    const [draft] = await q<{ title: string; summary: string; body: string; body_html: string }>`
      SELECT title, summary, body, body_html FROM drafts WHERE page_id = ${page.id}`;
    if (!draft) {
      if (page.published_revision_id !== null) return page.version;
      throw new ContentError('invalid', 'There is nothing to publish.');
    }
    // An image deleted since this text was written (a restored old version) or never uploaded:
    // visitors would see it broken. Every publish comes here: the editor, the CLI, a schedule.
    const missing = allowMissingMedia ? [] : await missingMediaIn(q, draft.body_html);
    if (missing.length > 0) throw new ContentError('missing-media', missingMediaMessage(missing));
    const at = now().toISOString();
    const [revision] = await q<{ id: number }>`
      INSERT INTO revisions
        (page_id, title, summary, body, body_html, published_at, published_by, published_via)
      VALUES (${page.id}, ${draft.title}, ${draft.summary}, ${draft.body}, ${draft.body_html},
              ${at}, ${editor}, ${via})
      RETURNING id`;
    if (!revision) throw new Error('revision insert returned no row');
    await q`UPDATE pages SET published_revision_id = ${Number(revision.id)} WHERE id = ${page.id}`;
    // A publish by hand settles a pending schedule too: the draft it was for is out.
    await dropDraft(q, page.id);
    await touch(q, page.id, at, 'published', editor);
    await changed();
    return page.version + 1;
  }

  const store = {
    async getPage(slug: string, { draft }: { draft: boolean }): Promise<PageView | null> {
      if (!isValidSlug(slug)) return null;
      const [row] = await traced('db.query', draft ? 'getPage (draft)' : 'getPage', () =>
        read((q) => q<PageRow>(PAGE_BY_SLUG, draft, slug, draft)),
      );
      return row ? toView(row) : null;
    },

    /** A page's draft view by id (editors only: a form's page, wherever it is now). */
    async getPageById(id: number): Promise<PageView | null> {
      return read((q) => pageById(q, id));
    },

    /** The current slug of a page once called `oldSlug`, if there is one to show. */
    async findRedirect(
      oldSlug: string,
      { draft = false }: { draft?: boolean } = {},
    ): Promise<string | null> {
      if (!isValidSlug(oldSlug)) return null;
      // A slug from the history redirects only while no page (that this side can see) holds it.
      const [row] = await read(
        (q) => q<{ slug: string }>`
          SELECT p.slug FROM slug_history h JOIN pages p ON p.id = h.page_id
          WHERE h.old_slug = ${oldSlug} AND (${draft} OR p.published_revision_id IS NOT NULL)
            AND NOT EXISTS (SELECT 1 FROM pages owner WHERE owner.slug = ${oldSlug}
                            AND (${draft} OR owner.published_revision_id IS NOT NULL))`,
      );
      return row?.slug ?? null;
    },

    /** The `limit` most recently published pages, newest first, for the feed. */
    async listRecentlyPublished(limit: number): Promise<FeedEntry[]> {
      const rows = await traced('db.query', 'listRecentlyPublished', () =>
        read(
          (q) => q<{
            id: number | string;
            slug: string;
            title: string;
            summary: string;
            body_html: string;
            first_published_at: string;
            published_at: string;
          }>`
            SELECT p.id, p.slug, r.title, r.summary, r.body_html, r.published_at,
              (SELECT MIN(f.published_at) FROM revisions f WHERE f.page_id = p.id)
                AS first_published_at
            FROM pages p
            JOIN revisions r ON r.id = p.published_revision_id
            ORDER BY r.published_at DESC, p.id DESC
            LIMIT ${limit}`,
        ),
      );
      return rows.map((row) => ({
        id: Number(row.id),
        slug: row.slug,
        title: row.title,
        summary: row.summary,
        bodyHtml: row.body_html,
        firstPublishedAt: row.first_published_at,
        publishedAt: row.published_at,
      }));
    },

    async listPublished(): Promise<PageSummary[]> {
      const rows = await traced('db.query', 'listPublished', () =>
        read(
          (q) => q<{ slug: string; title: string; summary: string; published_at: string }>`
            SELECT p.slug, r.title, r.summary, r.published_at FROM pages p
            JOIN revisions r ON r.id = p.published_revision_id
            ORDER BY CASE WHEN p.slug = ${HOME_SLUG} THEN 0 ELSE 1 END, LOWER(r.title), p.slug`,
        ),
      );
      return rows.map((row) => ({
        slug: row.slug,
        title: row.title,
        summary: row.summary,
        publishedAt: row.published_at,
      }));
    },

    async listAll(): Promise<PageListing[]> {
      const rows = await read(
        (q) => q<{
          id: number;
          slug: string;
          title: string;
          state: PageState;
          updated_at: string;
          updated_by: string | null;
          last_change: PageChange;
          published_at: string | null;
          publish_at: string | null;
          missed_publish_at: string | null;
        }>`
          SELECT p.id, p.slug, COALESCE(d.title, r.title) AS title, p.updated_at, p.updated_by,
            p.last_change, r.published_at, p.publish_at, p.missed_publish_at,
            CASE WHEN p.published_revision_id IS NULL THEN 'draft-only'
                 WHEN d.page_id IS NOT NULL THEN 'changed' ELSE 'published' END AS state
          FROM pages p LEFT JOIN revisions r ON r.id = p.published_revision_id
          LEFT JOIN drafts d ON d.page_id = p.id
          ORDER BY CASE WHEN p.slug = ${HOME_SLUG} THEN 0 ELSE 1 END, p.slug`,
      );
      return rows.map((row) => ({
        id: Number(row.id),
        slug: row.slug,
        title: row.title,
        state: row.state,
        updatedAt: row.updated_at,
        updatedBy: row.updated_by,
        lastChange: row.last_change,
        publishedAt: row.published_at,
        publishAt: row.publish_at,
        missedPublishAt: row.missed_publish_at,
      }));
    },

    /** Every published version of a page, newest first. */
    async listRevisions(pageId: number): Promise<Revision[]> {
      const rows = await read(
        (q) => q<RevisionRow>`
          SELECT r.id, r.page_id, r.title, r.summary, r.body, r.body_html, r.published_at,
            r.published_by, r.published_via, (p.published_revision_id = r.id) AS current
          FROM revisions r JOIN pages p ON p.id = r.page_id
          WHERE r.page_id = ${pageId} ORDER BY r.id DESC`,
      );
      return rows.map(toRevision);
    },

    /** One published version of a page (of that page only), or null. */
    async getRevision(pageId: number, revisionId: number): Promise<Revision | null> {
      const [row] = await read(
        (q) => q<RevisionRow>`
          SELECT r.id, r.page_id, r.title, r.summary, r.body, r.body_html, r.published_at,
            r.published_by, r.published_via, (p.published_revision_id = r.id) AS current
          FROM revisions r JOIN pages p ON p.id = r.page_id
          WHERE r.page_id = ${pageId} AND r.id = ${revisionId}`,
      );
      return row ? toRevision(row) : null;
    },

    /**
     * Makes an earlier published version the page's draft (to publish again, or edit), if the
     * page is still at the version the editor saw; a stale request changes nothing.
     */
    async restoreRevision({
      pageId,
      revisionId,
      expectedVersion,
      editor,
    }: {
      pageId: number;
      revisionId: number;
      expectedVersion: number;
      editor: string | null;
    }): Promise<SaveResult> {
      return write(async (q) => {
        const page = await pageRowById(q, pageId);
        if (!page) throw new ContentError('not-found', 'This page was deleted meanwhile.');
        if (page.version !== expectedVersion)
          return { ok: false, reason: 'conflict', current: await pageById(q, page.id) };
        const [revision] = await q<{
          title: string;
          summary: string;
          body: string;
          body_html: string;
        }>`
          SELECT title, summary, body, body_html FROM revisions
          WHERE id = ${revisionId} AND page_id = ${pageId}`;
        if (!revision)
          throw new ContentError('not-found', 'That version is not in this page’s history.');
        const at = now().toISOString();
        await writeDraft(
          q,
          pageId,
          {
            title: revision.title,
            summary: revision.summary,
            body: revision.body,
            bodyHtml: revision.body_html,
          },
          editor,
          at,
        );
        if (await draftMatchesPublished(q, pageId)) await dropDraft(q, pageId);
        await touch(q, pageId, at, 'restored', editor);
        return { ok: true, version: page.version + 1, pageId, slug: page.slug };
      });
    },

    async pageCount(): Promise<number> {
      const [row] = await read((q) => q<{ n: number | string }>`SELECT COUNT(*) AS n FROM pages`);
      return Number(row?.n ?? 0);
    },

    /**
     * Saves a draft. `expectedVersion` null creates a page at `slug`. Otherwise the page is the
     * one `pageId` names (a form's page, whatever its slug is now) or, without it, the one at
     * `slug`; its version must equal `expectedVersion`, or nothing is written and the caller
     * gets what was saved meanwhile. A page found by id and saved under another slug is renamed
     * in the same transaction.
     */
    async saveDraft(
      input: PageFields & SaveInput,
      { publish = false }: { publish?: boolean } = {},
    ): Promise<SaveResult> {
      const fields = await prepareFields(input, (await opened()).query);
      return write(async (q, changed) => {
        const saved = await saveDraftIn(q, changed, input, fields);
        // "Publish" with unsaved text publishes what is on screen, in the same transaction.
        if (!saved.ok || !publish) return saved;
        const version = await publishIn(q, changed, saved.slug, {
          editor: input.editor,
          pageId: saved.pageId,
        });
        return { ...saved, version };
      });
    },

    /** Makes the latest draft the published version (kept as a revision). */
    async publish(
      slug: string,
      options: { editor?: string | null } & Expectation = {},
    ): Promise<number> {
      return write((q, changed) => publishIn(q, changed, slug, options));
    },

    /**
     * Schedules the page's draft to be published at `at` (whatever the draft says then), on
     * behalf of `editor`; replaces an earlier schedule. Visitors see nothing until then, so the
     * page's version does not move: an editor's open tab keeps saving.
     */
    async schedulePublish(
      slug: string,
      at: Date,
      {
        editor = null,
        pageId,
        onlyIfUnscheduled = false,
      }: {
        editor?: string | null;
        pageId?: number;
        /** The banner's form is for a page with no schedule: one set meanwhile (another tab,
         * another editor) is not silently replaced. The CLI replaces on purpose. */
        onlyIfUnscheduled?: boolean;
      } = {},
    ): Promise<Schedule> {
      const problem = Number.isNaN(at.getTime())
        ? unreadableTimeMessage()
        : publishTimeProblem(at, now());
      if (problem) throw new ContentError('invalid', problem);
      const publishAt = at.toISOString();
      return write(async (q) => {
        const page = await requirePage(q, slug, { pageId });
        const [draft] = await q<{ body_html: string }>`
          SELECT body_html FROM drafts WHERE page_id = ${page.id}`;
        if (!draft)
          throw new ContentError(
            'invalid',
            `“${page.slug}” is published and has no newer draft: there is nothing to schedule.`,
          );
        const missing = await missingMediaIn(q, draft.body_html);
        if (missing.length > 0)
          throw new ContentError('missing-media', missingMediaMessage(missing, 'scheduled'));
        if (onlyIfUnscheduled) {
          const [pending] = await q<{ publish_at: string | null; scheduled_by: string | null }>`
            SELECT publish_at, scheduled_by FROM pages WHERE id = ${page.id}`;
          if (pending?.publish_at)
            throw new ContentError(
              'conflict',
              `This page was scheduled meanwhile${pending.scheduled_by ? ` by ${pending.scheduled_by}` : ''}, for ${new Date(pending.publish_at).toISOString().replace('T', ' ').slice(0, 16)} UTC. Reload to see it; cancel it there to set another time.`,
            );
        }
        await q`UPDATE pages SET publish_at = ${publishAt}, scheduled_by = ${editor}
                WHERE id = ${page.id}`;
        // A new schedule answers the notice of one that did not publish.
        await forgetMissedSchedule(q, page.id);
        return { publishAt, scheduledBy: editor };
      });
    },

    /** Cancels the page's pending schedule; true when there was one. */
    async cancelSchedule(slug: string, { pageId }: { pageId?: number } = {}): Promise<boolean> {
      return write(async (q) => {
        const page = await requirePage(q, slug, { pageId });
        const cleared = await q`UPDATE pages SET publish_at = NULL, scheduled_by = NULL
                                WHERE id = ${page.id} AND publish_at IS NOT NULL RETURNING id`;
        return cleared.length > 0;
      });
    },

    /** The page's pending schedule, or null (editors only: visitors never learn of it). */
    async scheduleOf(pageId: number): Promise<Schedule | null> {
      const [row] = await read(
        (q) => q<{ publish_at: string | null; scheduled_by: string | null }>`
          SELECT publish_at, scheduled_by FROM pages WHERE id = ${pageId}`,
      );
      return row?.publish_at ? { publishAt: row.publish_at, scheduledBy: row.scheduled_by } : null;
    },

    /** The page's schedule that came due and did not publish, until an editor answers it. */
    async missedScheduleOf(pageId: number): Promise<MissedSchedule | null> {
      const [row] = await read(
        (q) => q<{
          missed_publish_at: string | null;
          missed_scheduled_by: string | null;
          missed_reason: string | null;
        }>`
          SELECT missed_publish_at, missed_scheduled_by, missed_reason FROM pages
          WHERE id = ${pageId}`,
      );
      return row?.missed_publish_at
        ? {
            publishAt: row.missed_publish_at,
            scheduledBy: row.missed_scheduled_by,
            reason: row.missed_reason ?? '',
          }
        : null;
    },

    /**
     * Dismisses the notice of the missed schedule that was due at `missedAt` (the one the
     * editor read). "newer": another schedule missed since, and its notice stays to be read;
     * "nothing": none is left (answered or dismissed meanwhile).
     */
    async dismissMissedSchedule(
      slug: string,
      { pageId, missedAt }: { pageId?: number; missedAt: string },
    ): Promise<'dismissed' | 'newer' | 'nothing'> {
      return write(async (q) => {
        const page = await requirePage(q, slug, { pageId });
        if (await forgetMissedSchedule(q, page.id, missedAt)) return 'dismissed';
        const [left] = await q<{ missed_publish_at: string | null }>`
          SELECT missed_publish_at FROM pages WHERE id = ${page.id}`;
        return left?.missed_publish_at ? 'newer' : 'nothing';
      });
    },

    /**
     * Publishes every page whose time has come, each in its own transaction. The transaction
     * first clears the page's `publish_at` where it still holds the time it found: with
     * several instances (and the CLI) asking at once, one clears it and publishes, and the
     * others find nothing to clear and move on: once, whoever asks.
     */
    async publishDue(limit = 50): Promise<ScheduledPublish[]> {
      const due = await read(
        (q) => q<{ id: number; slug: string; publish_at: string; scheduled_by: string | null }>`
          SELECT id, slug, publish_at, scheduled_by FROM pages
          WHERE publish_at IS NOT NULL AND publish_at <= ${now().toISOString()}
          ORDER BY publish_at, id LIMIT ${limit}`,
      );
      const published: ScheduledPublish[] = [];
      for (const page of due) {
        const outcome = await write(async (q, changed) => {
          const [claimed] = await q<{ slug: string }>`
            UPDATE pages SET publish_at = NULL, scheduled_by = NULL
            WHERE id = ${Number(page.id)} AND publish_at = ${page.publish_at} RETURNING slug`;
          if (!claimed) return null;
          const [draft] = await q`SELECT page_id FROM drafts WHERE page_id = ${Number(page.id)}`;
          if (!draft) return null;
          try {
            await publishIn(q, changed, claimed.slug, {
              editor: page.scheduled_by,
              via: 'schedule',
              pageId: Number(page.id),
            });
          } catch (error) {
            // The draft came to name an image the library lacks after it was scheduled: it is
            // refused before anything is written, the claim (clearing the schedule) commits, as
            // asking again each minute would not mend it; the draft stays for its editor, and
            // the page keeps what was missed and why, for the banner and the dashboard.
            if (isContentError(error) && error.code === 'missing-media') {
              await q`UPDATE pages SET missed_publish_at = ${page.publish_at},
                      missed_scheduled_by = ${page.scheduled_by}, missed_reason = ${error.message}
                      WHERE id = ${Number(page.id)}`;
              return { slug: claimed.slug, refused: error.message };
            }
            throw error;
          }
          return { slug: claimed.slug };
        });
        if (outcome)
          published.push({
            ...outcome,
            publishAt: page.publish_at,
            scheduledBy: page.scheduled_by,
          });
      }
      return published;
    },

    /** Takes a page down; its text stays as a draft so nothing is lost. */
    async unpublish(
      slug: string,
      { editor = null, ...expected }: { editor?: string | null } & Expectation = {},
    ): Promise<void> {
      await write(async (q, changed) => {
        const page = await requirePage(q, slug, expected);
        if (page.published_revision_id === null) return;
        const at = now().toISOString();
        await q`
          INSERT INTO drafts (page_id, title, summary, body, body_html, updated_at, updated_by)
          SELECT page_id, title, summary, body, body_html, ${at}, ${editor} FROM revisions
          WHERE id = ${page.published_revision_id}
          ON CONFLICT (page_id) DO NOTHING`;
        // Taking a page down is deliberate: a pending schedule must not bring it back.
        await q`UPDATE pages SET published_revision_id = NULL, publish_at = NULL,
                scheduled_by = NULL WHERE id = ${page.id}`;
        await touch(q, page.id, at, 'unpublished', editor);
        await changed();
      });
    },

    /** Drops the draft; a page that was never published is deleted with it. */
    async discardDraft(
      slug: string,
      { editor = null, ...expected }: { editor?: string | null } & Expectation = {},
    ): Promise<void> {
      await write(async (q) => {
        const page = await requirePage(q, slug, expected);
        if (page.published_revision_id === null) {
          await q`DELETE FROM pages WHERE id = ${page.id}`;
          return;
        }
        await dropDraft(q, page.id);
        await touch(q, page.id, now().toISOString(), 'discarded', editor);
      });
    },

    /** Renames a page; the old slug (and any older ones) then redirect to the new one. */
    async renameSlug(oldSlug: string, newSlug: string): Promise<void> {
      await write(async (q, changed) => {
        const page = await requirePage(q, oldSlug);
        if (oldSlug === newSlug) return;
        const at = now().toISOString();
        if (await moveSlug(q, page, newSlug, at)) await changed();
        await touch(q, page.id, at, 'renamed', null);
      });
    },

    /**
     * Makes the <source> elements of every uploaded image in kept drafts and revisions anew
     * from the sizes the store now has (`folio media refresh`), and keeps the HTML where that
     * changed it. Nothing is rendered again: a full render under load could fall back to plain
     * code and keep it (hostile pass). Markdown and page versions are not touched, so editors'
     * open forms stay valid. Returns how many texts changed.
     */
    async refreshPictures(): Promise<number> {
      type Kept = { id: number; body: string; body_html: string };
      const [drafts, revisions] = await read(async (q) => [
        await q<Kept>`
          SELECT page_id AS id, body, body_html FROM drafts WHERE body LIKE '%/media/%'`,
        await q<Kept>`
          SELECT id, body, body_html FROM revisions WHERE body LIKE '%/media/%'`,
      ]);
      // Every image any of these texts names, read once (revisions repeat the same images).
      const media = await read((q) =>
        mediaByHashes(q, [
          ...new Set([...drafts, ...revisions].flatMap((row) => mediaHashesIn(row.body))),
        ]),
      );
      const changed = (rows: Kept[]) =>
        rows
          .map((row) => ({ ...row, html: refreshPictureSources(row.body_html, media) }))
          .filter((row) => row.html !== row.body_html);
      const [draftHtml, revisionHtml] = [changed(drafts), changed(revisions)];
      if (draftHtml.length + revisionHtml.length === 0) return 0;
      // Written only where the HTML is still the one read, so a save meanwhile keeps its own.
      return write(async (q, bump) => {
        let refreshed = 0;
        for (const row of draftHtml)
          refreshed += (
            await q`UPDATE drafts SET body_html = ${row.html}
                    WHERE page_id = ${row.id} AND body_html = ${row.body_html} RETURNING page_id`
          ).length;
        for (const row of revisionHtml)
          refreshed += (
            await q`UPDATE revisions SET body_html = ${row.html}
                    WHERE id = ${row.id} AND body_html = ${row.body_html} RETURNING id`
          ).length;
        if (refreshed > 0) await bump();
        return refreshed;
      });
    },

    /** The site's title, tagline, footer and header navigation. */
    async getSiteSettings(): Promise<SiteSettings> {
      const rows = await read(
        (q) => q<{ key: string; value: string }>`
          SELECT key, value FROM settings
          WHERE key IN ('site_title', 'site_tagline', 'site_footer', 'site_navigation')`,
      );
      const value = (key: string) => rows.find((row) => row.key === key)?.value;
      return {
        title: value('site_title') ?? 'Folio',
        tagline: value('site_tagline') ?? '',
        footer: value('site_footer') ?? '',
        navigation: parseNavigation(value('site_navigation')),
      };
    },

    /** Saves the site's settings; visitors see them on their next request (like a publish). */
    async saveSiteSettings(settings: SiteSettings): Promise<void> {
      const parsed = siteSettingsSchema.safeParse(settings);
      if (!parsed.success)
        throw new ContentError(
          'invalid',
          parsed.error.issues.map((issue) => issue.message).join(' '),
        );
      await write(async (q, changed) => {
        const entries: [string, string | null][] = [
          ['site_title', parsed.data.title],
          ['site_tagline', parsed.data.tagline],
          ['site_footer', parsed.data.footer],
          [
            'site_navigation',
            parsed.data.navigation ? JSON.stringify(parsed.data.navigation) : null,
          ],
        ];
        for (const [key, value] of entries) {
          if (value === null) await q`DELETE FROM settings WHERE key = ${key}`;
          else
            await q`INSERT INTO settings (key, value) VALUES (${key}, ${value})
                    ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
        }
        await changed();
      });
    },

    /**
     * The public header's links: the pages the settings name, in their order, that are
     * published; without a setting, every published page but home.
     */
    async navigation(): Promise<NavigationLink[]> {
      const [settings, published] = await Promise.all([
        store.getSiteSettings(),
        read(
          (q) => q<{ id: number; slug: string; title: string }>`
            SELECT p.id, p.slug, r.title FROM pages p
            JOIN revisions r ON r.id = p.published_revision_id
            ORDER BY LOWER(r.title), p.slug`,
        ),
      ]);
      const byId = new Map(published.map((row) => [Number(row.id), row]));
      const chosen =
        settings.navigation === null
          ? published.filter((row) => row.slug !== HOME_SLUG)
          : settings.navigation.flatMap((id) => {
              const row = byId.get(id);
              return row ? [row] : [];
            });
      return chosen.map((row) => ({ slug: row.slug, title: row.title }));
    },

    /** The `/media/` addresses a page's rendered HTML points at that answer no image. */
    async missingMedia(html: string): Promise<string[]> {
      return read((q) => missingMediaIn(q, html));
    },

    /** Creates or overwrites a page's draft regardless of version (CLI, seed), optionally publishing. */
    async putPage(
      input: PageFields & { slug: string },
      { publish = false, editor = null }: { publish?: boolean; editor?: string | null } = {},
    ): Promise<void> {
      await store.putPages([{ ...input, publish }], { editor });
    },

    /** `putPage` for several pages, in one transaction: all of them or none (import). */
    async putPages(
      inputs: readonly (PageFields & { slug: string; publish: boolean })[],
      {
        editor = null,
        allowMissingMedia = false,
      }: { editor?: string | null; allowMissingMedia?: boolean } = {},
    ): Promise<void> {
      const prepared = await Promise.all(
        inputs.map(async (input) => ({
          input,
          fields: await prepareFields(input, (await opened()).query),
        })),
      );
      await write(async (q, changed) => {
        for (const { input, fields } of prepared) {
          const existing = await pageRowBySlug(q, input.slug);
          const result = await saveDraftIn(
            q,
            changed,
            { slug: input.slug, expectedVersion: existing ? existing.version : null, editor },
            fields,
          );
          if (!result.ok)
            throw new ContentError('conflict', 'The page changed while saving; try again.');
          if (input.publish) await publishIn(q, changed, input.slug, { editor, allowMissingMedia });
        }
      });
    },
  };
  return store;
}

/** The store over the process's database (opened on first use). */
export function contentStore(): ContentStore {
  return processSingleton('content-store', () => createContentStore(getDatabase));
}
