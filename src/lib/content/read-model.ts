// Owns what the page store reads: a page by slug (public or preview) or by id, where an old
// slug now points, the listings (published, all, the feed's), the header's navigation, the
// page count, and unsaved Markdown rendered for the editor's preview. Reads only; every write
// is in write-model.ts, history.ts, schedules.ts and settings.ts.
import 'server-only';
import { renderMarkdown } from '../markdown/markdown';
import { mediaByHashes, mediaHashesIn, missingMediaIn } from '../media/media-refs';
import { traced } from '../observability/spans';
import { PAGE_BY_SLUG, type PageRow, pageById, toView } from './rows';
import { headerShows } from './settings';
import { HOME_SLUG, isValidSlug } from './slugs';
import type { StoreContext } from './store-context';
import type {
  FeedEntry,
  NavigationLink,
  PageChange,
  PageListing,
  PageState,
  PageSummary,
  PageView,
  SiteSettings,
} from './types';

/** The store's reads; `getSiteSettings` is the settings' own (navigation follows them). */
export function readModel({ read }: StoreContext, getSiteSettings: () => Promise<SiteSettings>) {
  return {
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

    /**
     * Markdown as a page would show it, uploaded images with their sizes (the editor's preview
     * of unsaved text). Nothing is validated or stored.
     */
    async renderBody(markdown: string): Promise<string> {
      const media = await read((q) => mediaByHashes(q, mediaHashesIn(markdown)));
      return renderMarkdown(markdown, { media });
    },

    async pageCount(): Promise<number> {
      const [row] = await read((q) => q<{ n: number | string }>`SELECT COUNT(*) AS n FROM pages`);
      return Number(row?.n ?? 0);
    },

    /**
     * The public header's links: the pages the settings name, in their order, that are
     * published; without a setting, every published page but home.
     */
    async navigation(): Promise<NavigationLink[]> {
      const [settings, published] = await Promise.all([
        getSiteSettings(),
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
          ? published.filter((row) => headerShows(null, { id: Number(row.id), slug: row.slug }))
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
  };
}
