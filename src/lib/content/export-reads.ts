// Owns the page store's read for `export`: the site a batch of pages at a time, in id order
// (keyset), each page with its published text and its newer draft, so an export of any size
// holds one batch in memory (issue 25).
import 'server-only';
import type { PageFields } from './page-fields';
import type { StoreContext } from './store-context';

/** A page as `export` writes it: its published text and its newer draft, each or none. */
export type ExportedPage = {
  id: number;
  slug: string;
  published: PageFields | null;
  draft: PageFields | null;
};

export function exportReads({ read }: StoreContext) {
  return {
    /** Up to `limit` pages after id `afterId`, in id order: the next batch of an export. */
    async pagesAfter(afterId: number, limit: number): Promise<ExportedPage[]> {
      const rows = await read(
        (q) => q<{
          id: number | string;
          slug: string;
          r_title: string | null;
          r_summary: string | null;
          r_body: string | null;
          d_title: string | null;
          d_summary: string | null;
          d_body: string | null;
        }>`
          SELECT p.id, p.slug, r.title AS r_title, r.summary AS r_summary, r.body AS r_body,
            d.title AS d_title, d.summary AS d_summary, d.body AS d_body
          FROM pages p LEFT JOIN revisions r ON r.id = p.published_revision_id
          LEFT JOIN drafts d ON d.page_id = p.id
          WHERE p.id > ${afterId} ORDER BY p.id LIMIT ${limit}`,
      );
      const fields = (title: string | null, summary: string | null, body: string | null) =>
        title === null ? null : { title, summary: summary ?? '', body: body ?? '' };
      return rows.map((row) => ({
        id: Number(row.id),
        slug: row.slug,
        published: fields(row.r_title, row.r_summary, row.r_body),
        draft: fields(row.d_title, row.d_summary, row.d_body),
      }));
    },
  };
}
