// Owns how pages and revisions are read from their tables: the one query for both sides
// (public and preview), the rows it returns and their conversion to views, and the small
// lookups by slug or id every write starts from. Used inside and outside transactions.
import 'server-only';
import { type Query, sqlTemplate } from '../data/db';
import { parseSeo } from './seo-fields';
import { isValidSlug } from './slugs';
import { parseTopicIds } from './topic-ids';
import type {
  PageChange,
  PageListing,
  PageState,
  PageView,
  Revision,
  RevisionSummary,
} from './types';

export type PageRow = {
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
  kind: string;
  topics: string;
  authors: string;
  seo: string;
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
  p.updated_by, p.last_change,
  COALESCE(d.kind, r.kind) AS kind,
  COALESCE(d.topics, r.topics) AS topics,
  COALESCE(d.authors, r.authors) AS authors,
  COALESCE(d.seo, r.seo) AS seo
FROM pages p
LEFT JOIN revisions r ON r.id = p.published_revision_id
LEFT JOIN drafts d ON d.page_id = p.id AND `;
// Values: draft, slug, draft.
export const PAGE_BY_SLUG = sqlTemplate([
  PAGE_SELECT,
  '\nWHERE p.slug = ',
  ' AND (',
  ' OR p.published_revision_id IS NOT NULL)',
]);
// Editors only: the page a form was made for, by id, whatever its slug is now. Values: id.
const PAGE_BY_ID = sqlTemplate([`${PAGE_SELECT}TRUE\nWHERE p.id = `, '']);

export function toView(row: PageRow): PageView {
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
    kind: row.kind === 'post' ? 'post' : 'page',
    topicIds: parseTopicIds(row.topics),
    authorIds: parseTopicIds(row.authors),
    seo: parseSeo(row.seo),
  };
}

export type RevisionSummaryRow = {
  id: number;
  page_id: number;
  published_at: string;
  published_by: string | null;
  published_via: string | null;
  current: number | boolean | null;
};

export type RevisionRow = RevisionSummaryRow & {
  title: string;
  summary: string;
  body: string;
  body_html: string;
};

export function toRevisionSummary(row: RevisionSummaryRow): RevisionSummary {
  return {
    id: Number(row.id),
    pageId: Number(row.page_id),
    publishedAt: row.published_at,
    publishedBy: row.published_by,
    bySchedule: row.published_via === 'schedule',
    current: Boolean(row.current),
  };
}

export function toRevision(row: RevisionRow): Revision {
  return {
    ...toRevisionSummary(row),
    title: row.title,
    summary: row.summary,
    bodyMarkdown: row.body,
    bodyHtml: row.body_html,
  };
}

export type PageRowRef = {
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

export async function pageRowBySlug(q: Query, slug: string): Promise<PageRowRef | null> {
  if (!isValidSlug(slug)) return null;
  const [row] = await q<PageRowRef>`
    SELECT id, slug, version, published_revision_id FROM pages WHERE slug = ${slug}`;
  return toRef(row);
}

export async function pageRowById(q: Query, id: number): Promise<PageRowRef | null> {
  const [row] = await q<PageRowRef>`
    SELECT id, slug, version, published_revision_id FROM pages WHERE id = ${id}`;
  return toRef(row);
}

export async function pageById(q: Query, id: number): Promise<PageView | null> {
  const [row] = await q<PageRow>(PAGE_BY_ID, id);
  return row ? toView(row) : null;
}

/** A page as the editors' lists read it (the CLI's `page list`, the dashboard). */
export type ListingRow = {
  id: number | string;
  slug: string;
  title: string;
  state: PageState;
  updated_at: string;
  updated_by: string | null;
  last_change: PageChange;
  published_at: string | null;
  publish_at: string | null;
  missed_publish_at: string | null;
  /** The dashboard's rows say it (its draft's, else its published revision's). */
  kind?: string | null;
  /** Who made it, where the list reads it (the dashboard asks `can()` per row). */
  created_by?: number | string | null;
};

export function toListing(row: ListingRow): PageListing {
  return {
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
    ...(row.kind === 'post' || row.kind === 'page' ? { kind: row.kind } : {}),
    ...(row.created_by === undefined
      ? {}
      : { ownerId: row.created_by === null ? null : Number(row.created_by) }),
  };
}
