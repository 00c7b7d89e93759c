// Owns pages: published revisions, drafts, renames, and the one query that reads both sides.
import 'server-only';
import type { Database } from 'bun:sqlite';
import { getDatabase } from './db';
import { renderMarkdown } from './markdown';
import { traced } from './observability/spans';
import { type PageFields, pageFieldsSchema } from './page-fields';

export { type PageFields, pageFieldsSchema };

import { HOME_SLUG, isValidSlug, validateNewSlug } from './slug';

export type PageState = 'published' | 'draft-only' | 'changed';

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
  draftUpdatedAt: string | null;
  draftUpdatedBy: string | null;
};

export type PageSummary = {
  slug: string;
  title: string;
  summary: string;
  publishedAt: string | null;
};
export type PageListing = {
  slug: string;
  title: string;
  state: PageState;
  updatedAt: string;
  draftUpdatedBy: string | null;
};

export type ContentErrorCode =
  | 'not-found'
  | 'conflict'
  | 'invalid-slug'
  | 'slug-taken'
  | 'invalid'
  | 'busy';

/** An expected failure with a message fit for an editor; never reported as a bug. */
export class ContentError extends Error {
  constructor(
    readonly code: ContentErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ContentError';
  }
}

export type SaveResult =
  | { ok: true; version: number }
  | { ok: false; reason: 'conflict'; current: PageView | null };

type PageRow = {
  id: number;
  slug: string;
  version: number;
  created_at: string;
  updated_at: string;
  published_at: string | null;
  showing_draft: number;
  state: PageState;
  title: string;
  summary: string;
  body: string;
  body_html: string;
  draft_updated_at: string | null;
  draft_updated_by: string | null;
};

// The one query for both sides. With :draft = 0 the drafts join matches nothing, so no draft
// column can reach a public read, and the WHERE clause admits published pages only.
const PAGE_SQL = `
SELECT p.id, p.slug, p.version, p.created_at, p.updated_at, r.published_at,
  (d.page_id IS NOT NULL) AS showing_draft,
  CASE WHEN p.published_revision_id IS NULL THEN 'draft-only'
       WHEN d.page_id IS NOT NULL THEN 'changed' ELSE 'published' END AS state,
  COALESCE(d.title, r.title) AS title,
  COALESCE(d.summary, r.summary) AS summary,
  COALESCE(d.body, r.body) AS body,
  COALESCE(d.body_html, r.body_html) AS body_html,
  d.updated_at AS draft_updated_at,
  d.updated_by AS draft_updated_by
FROM pages p
LEFT JOIN revisions r ON r.id = p.published_revision_id
LEFT JOIN drafts d ON d.page_id = p.id AND $draft = 1
WHERE p.slug = $slug AND ($draft = 1 OR p.published_revision_id IS NOT NULL)`;

function toView(row: PageRow): PageView {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    summary: row.summary,
    bodyMarkdown: row.body,
    bodyHtml: row.body_html,
    state: row.state,
    showingDraft: row.showing_draft === 1,
    version: row.version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    publishedAt: row.published_at,
    draftUpdatedAt: row.draft_updated_at,
    draftUpdatedBy: row.draft_updated_by,
  };
}

export type ContentStore = ReturnType<typeof createContentStore>;

export const BUSY_MESSAGE =
  'Folio is busy saving other changes. Nothing was saved; try again in a moment (your text is kept).';

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}

export function createContentStore(db: Database, now: () => Date = () => new Date()) {
  // Statements are prepared on first use (bun:sqlite caches them by SQL), so one damaged table
  // fails only the queries that need it, not the whole store.
  const selectPage = () => db.query<PageRow, { draft: number; slug: string }>(PAGE_SQL);
  const selectPageRow = () =>
    db.query<{ id: number; version: number; published_revision_id: number | null }, [string]>(
      'SELECT id, version, published_revision_id FROM pages WHERE slug = ?',
    );
  const selectPublished = () =>
    db.query<{ slug: string; title: string; summary: string; published_at: string }, []>(
      `SELECT p.slug, r.title, r.summary, r.published_at FROM pages p
     JOIN revisions r ON r.id = p.published_revision_id
     ORDER BY CASE WHEN p.slug = '${HOME_SLUG}' THEN 0 ELSE 1 END, r.title COLLATE NOCASE`,
    );
  const selectContentVersion = () =>
    db.query<{ value: string }, []>("SELECT value FROM settings WHERE key = 'content_version'");
  const selectRedirect = () =>
    db.query<{ slug: string }, { old: string; draft: number }>(
      `SELECT p.slug FROM slug_history h JOIN pages p ON p.id = h.page_id
     WHERE h.old_slug = $old AND ($draft = 1 OR p.published_revision_id IS NOT NULL)`,
    );

  /** A write transaction; a database still locked after busy_timeout is a ContentError. */
  function writeTransaction<T>(work: () => T): () => T {
    return () => {
      try {
        // IMMEDIATE takes the write lock first, so a busy database is waited for (busy_timeout)
        // instead of failing at once when a read transaction tries to become a write.
        return db.transaction(work).immediate();
      } catch (error) {
        if (isBusy(error)) throw new ContentError('busy', BUSY_MESSAGE);
        throw error;
      }
    };
  }

  function bumpContentVersion() {
    db.query(
      "UPDATE settings SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key = 'content_version'",
    ).run();
  }

  function requirePage(slug: string) {
    const row = isValidSlug(slug) ? selectPageRow().get(slug) : null;
    if (!row) throw new ContentError('not-found', `There is no page “${slug}”.`);
    return row;
  }

  function touch(pageId: number, at: string) {
    db.query('UPDATE pages SET version = version + 1, updated_at = ? WHERE id = ?').run(at, pageId);
  }

  function writeDraft(pageId: number, fields: PageFields, editor: string | null, at: string) {
    db.query(
      `INSERT INTO drafts (page_id, title, summary, body, body_html, updated_at, updated_by)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (page_id) DO UPDATE SET title = excluded.title, summary = excluded.summary,
         body = excluded.body, body_html = excluded.body_html, updated_at = excluded.updated_at,
         updated_by = excluded.updated_by`,
    ).run(
      pageId,
      fields.title,
      fields.summary,
      fields.body,
      renderMarkdown(fields.body),
      at,
      editor,
    );
  }

  function parseFields(input: PageFields): PageFields {
    const parsed = pageFieldsSchema.safeParse(input);
    if (!parsed.success) {
      throw new ContentError(
        'invalid',
        parsed.error.issues.map((issue) => issue.message).join(' '),
      );
    }
    return parsed.data;
  }

  const store = {
    getPage(slug: string, { draft }: { draft: boolean }): PageView | null {
      if (!isValidSlug(slug)) return null;
      const row = traced('db.query', draft ? 'getPage (draft)' : 'getPage', () =>
        selectPage().get({ draft: draft ? 1 : 0, slug }),
      );
      return row ? toView(row) : null;
    },

    /** The current slug of a page once called `oldSlug`, if there is one to show. */
    findRedirect(oldSlug: string, { draft = false }: { draft?: boolean } = {}): string | null {
      if (!isValidSlug(oldSlug)) return null;
      return selectRedirect().get({ old: oldSlug, draft: draft ? 1 : 0 })?.slug ?? null;
    },

    listPublished(): PageSummary[] {
      return traced('db.query', 'listPublished', () => selectPublished().all()).map((row) => ({
        slug: row.slug,
        title: row.title,
        summary: row.summary,
        publishedAt: row.published_at,
      }));
    },

    listAll(): PageListing[] {
      return db
        .query<
          {
            slug: string;
            title: string;
            state: PageState;
            updated_at: string;
            updated_by: string | null;
          },
          []
        >(
          `SELECT p.slug, COALESCE(d.title, r.title) AS title, p.updated_at, d.updated_by,
             CASE WHEN p.published_revision_id IS NULL THEN 'draft-only'
                  WHEN d.page_id IS NOT NULL THEN 'changed' ELSE 'published' END AS state
           FROM pages p LEFT JOIN revisions r ON r.id = p.published_revision_id
           LEFT JOIN drafts d ON d.page_id = p.id
           ORDER BY CASE WHEN p.slug = '${HOME_SLUG}' THEN 0 ELSE 1 END, p.slug`,
        )
        .all()
        .map((row) => ({
          slug: row.slug,
          title: row.title,
          state: row.state,
          updatedAt: row.updated_at,
          draftUpdatedBy: row.updated_by,
        }));
    },

    pageCount(): number {
      return db.query<{ n: number }, []>('SELECT COUNT(*) AS n FROM pages').get()?.n ?? 0;
    },

    /**
     * Saves a draft. `expectedVersion` null creates a page; otherwise it must equal the page's
     * current version, or nothing is written and the caller gets what was saved meanwhile.
     */
    saveDraft(
      input: PageFields & { slug: string; expectedVersion: number | null; editor: string | null },
    ): SaveResult {
      const fields = parseFields(input);
      return writeTransaction((): SaveResult => {
        const at = now().toISOString();
        const existing = isValidSlug(input.slug) ? selectPageRow().get(input.slug) : null;
        if (input.expectedVersion === null) {
          if (existing)
            throw new ContentError('slug-taken', `A page “${input.slug}” already exists.`);
          const problem = validateNewSlug(input.slug);
          if (problem) throw new ContentError('invalid-slug', problem);
          const created = db
            .query<{ id: number }, [string, string, string]>(
              'INSERT INTO pages (slug, created_at, updated_at) VALUES (?, ?, ?) RETURNING id',
            )
            .get(input.slug, at, at);
          if (!created) throw new Error('page insert returned no row');
          writeDraft(created.id, fields, input.editor, at);
          return { ok: true, version: 1 };
        }
        if (!existing) throw new ContentError('not-found', `There is no page “${input.slug}”.`);
        if (existing.version !== input.expectedVersion) {
          return {
            ok: false,
            reason: 'conflict',
            current: store.getPage(input.slug, { draft: true }),
          };
        }
        writeDraft(existing.id, fields, input.editor, at);
        touch(existing.id, at);
        return { ok: true, version: existing.version + 1 };
      })();
    },

    /** Makes the latest draft the published version (kept as a revision). */
    publish(
      slug: string,
      { editor = null, expectedVersion }: { editor?: string | null; expectedVersion?: number } = {},
    ): number {
      return writeTransaction(() => {
        const page = requirePage(slug);
        if (expectedVersion !== undefined && page.version !== expectedVersion) {
          throw new ContentError(
            'conflict',
            'The page changed since you opened it; review the latest version first.',
          );
        }
        const draft = db
          .query<{ title: string; summary: string; body: string; body_html: string }, [number]>(
            'SELECT title, summary, body, body_html FROM drafts WHERE page_id = ?',
          )
          .get(page.id);
        if (!draft) {
          if (page.published_revision_id !== null) return page.version;
          throw new ContentError('invalid', 'There is nothing to publish.');
        }
        const at = now().toISOString();
        const revision = db
          .query<{ id: number }, [number, string, string, string, string, string, string | null]>(
            `INSERT INTO revisions (page_id, title, summary, body, body_html, published_at, published_by)
             VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
          )
          .get(page.id, draft.title, draft.summary, draft.body, draft.body_html, at, editor);
        if (!revision) throw new Error('revision insert returned no row');
        db.query('UPDATE pages SET published_revision_id = ? WHERE id = ?').run(
          revision.id,
          page.id,
        );
        db.query('DELETE FROM drafts WHERE page_id = ?').run(page.id);
        touch(page.id, at);
        bumpContentVersion();
        return page.version + 1;
      })();
    },

    /** Takes a page down; its text stays as a draft so nothing is lost. */
    unpublish(slug: string, { editor = null }: { editor?: string | null } = {}): void {
      writeTransaction(() => {
        const page = requirePage(slug);
        if (page.published_revision_id === null) return;
        const at = now().toISOString();
        db.query(
          `INSERT INTO drafts (page_id, title, summary, body, body_html, updated_at, updated_by)
           SELECT page_id, title, summary, body, body_html, ?, ? FROM revisions WHERE id = ?
           ON CONFLICT (page_id) DO NOTHING`,
        ).run(at, editor, page.published_revision_id);
        db.query('UPDATE pages SET published_revision_id = NULL WHERE id = ?').run(page.id);
        touch(page.id, at);
        bumpContentVersion();
      })();
    },

    /** Drops the draft; a page that was never published is deleted with it. */
    discardDraft(slug: string): void {
      writeTransaction(() => {
        const page = requirePage(slug);
        if (page.published_revision_id === null) {
          db.query('DELETE FROM pages WHERE id = ?').run(page.id);
          return;
        }
        db.query('DELETE FROM drafts WHERE page_id = ?').run(page.id);
        touch(page.id, now().toISOString());
      })();
    },

    /** Renames a page; the old slug (and any older ones) then redirect to the new one. */
    renameSlug(oldSlug: string, newSlug: string): void {
      writeTransaction(() => {
        const page = requirePage(oldSlug);
        if (oldSlug === newSlug) return;
        if (oldSlug === HOME_SLUG)
          throw new ContentError('invalid-slug', 'The home page keeps its slug.');
        const problem = validateNewSlug(newSlug);
        if (problem) throw new ContentError('invalid-slug', problem);
        if (selectPageRow().get(newSlug))
          throw new ContentError('slug-taken', `A page “${newSlug}” already exists.`);
        const at = now().toISOString();
        db.query('DELETE FROM slug_history WHERE old_slug = ?').run(newSlug);
        db.query('UPDATE pages SET slug = ? WHERE id = ?').run(newSlug, page.id);
        db.query(
          `INSERT INTO slug_history (old_slug, page_id, renamed_at) VALUES (?, ?, ?)
           ON CONFLICT (old_slug) DO UPDATE SET page_id = excluded.page_id, renamed_at = excluded.renamed_at`,
        ).run(oldSlug, page.id, at);
        touch(page.id, at);
        bumpContentVersion();
      })();
    },

    /** Creates or overwrites a page's draft regardless of version (CLI, seed), optionally publishing. */
    putPage(
      input: PageFields & { slug: string },
      { publish = false, editor = null }: { publish?: boolean; editor?: string | null } = {},
    ): void {
      writeTransaction(() => {
        const existing = selectPageRow().get(input.slug);
        const result = store.saveDraft({
          ...input,
          expectedVersion: existing ? existing.version : null,
          editor,
        });
        if (!result.ok)
          throw new ContentError('conflict', 'The page changed while saving; try again.');
        if (publish) store.publish(input.slug, { editor });
      })();
    },

    /** Changes on every publish, unpublish and rename: the key for caches of public pages. */
    contentVersion(): number {
      // On every cached request: one prepared statement, a primary-key read.
      return Number(selectContentVersion().get()?.value ?? 0);
    },
  };
  return store;
}

const STORE = Symbol.for('folio.content-store');
const holder = globalThis as unknown as { [STORE]?: { db: Database; store: ContentStore } };

/** The store over the process's database (one per handle, shared across bundles). */
export function contentStore(): ContentStore {
  const db = getDatabase();
  if (holder[STORE]?.db !== db) holder[STORE] = { db, store: createContentStore(db) };
  return holder[STORE].store;
}
