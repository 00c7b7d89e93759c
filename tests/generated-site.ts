// Many published pages, made cheaply for scale tests and bench/scale-public.ts: one INSERT …
// SELECT over a counting CTE per table, inside one write transaction, on either engine. The
// pages are what `folio import` would leave (published, no draft, no navigation chosen) with
// realistic bodies: about 1.5 KB of Markdown, a quarter of them with a highlighted code block,
// rendered once by the real renderer and shared (with the plain text visitors' search indexes). Page ids come from the same counter the store
// uses (settings.last_page_id), so pages made afterwards by the store do not collide.

import { searchTextOfHtml } from '../src/lib/content/public-search-text';
import { contentVersionOf } from '../src/lib/data/content-version';
import type { Database } from '../src/lib/data/db';
import { renderMarkdown } from '../src/lib/markdown/markdown';

const PROSE = [
  'Folio keeps every published version of a page, so an editor can compare two of them word',
  'by word and restore an older one as a draft. This paragraph is here to give the page the',
  'weight of a real article: a few sentences about nothing much, with a [link](/about) and',
  'some *emphasis*, the way people write.',
].join(' ');
const PLAIN_MARKDOWN = `## A section\n\n${PROSE}\n\n${PROSE}\n\n- one point\n- another point\n\n${PROSE}\n`;
const CODE_MARKDOWN = `${PLAIN_MARKDOWN}\n\`\`\`ts\nexport function add(a: number, b: number): number {\n  return a + b;\n}\n\`\`\`\n`;

/** The Markdown and HTML every generated page shares (one in four has code). */
async function bodies() {
  return {
    plain: { md: PLAIN_MARKDOWN, html: await renderMarkdown(PLAIN_MARKDOWN) },
    code: { md: CODE_MARKDOWN, html: await renderMarkdown(CODE_MARKDOWN) },
  };
}

/** The slug of the `n`th generated page (from 1) with `prefix`. */
export const generatedSlug = (prefix: string, n: number) =>
  `${prefix}-${String(n).padStart(6, '0')}`;

/**
 * Publishes `count` pages `<prefix>-000001`… in one transaction, one second apart (the last
 * newest), and announces a new content version, as an import would. Returns their ids' range.
 */
export async function insertPublishedPages(
  db: Database,
  count: number,
  { prefix = 'gen', publishedFrom = '2025-01-01T00:00:00Z' } = {},
): Promise<{ firstId: number; lastId: number }> {
  const { plain, code } = await bodies();
  const epoch = Math.floor(Date.parse(publishedFrom) / 1000);
  const sqlite = db.engine === 'sqlite';
  // The two engines differ only in how a number becomes padded text and a time.
  const padded = sqlite ? "printf('%06d', n.i)" : "lpad(CAST(n.i AS TEXT), 6, '0')";
  const time = sqlite
    ? `strftime('%Y-%m-%dT%H:%M:%S.000Z', ${epoch} + n.i, 'unixepoch')`
    : `to_char(to_timestamp(${epoch} + n.i) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const counting = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${Math.trunc(count)})`;
  const version = contentVersionOf(db);
  let bumped = 0;
  const range = await db.transaction(async (q) => {
    const [row] = await q<{ value: string }>`
      SELECT value FROM settings WHERE key = 'last_page_id'`;
    const base = Number(row?.value ?? 0);
    await q.unsafe(`${counting}
      INSERT INTO pages (id, slug, created_at, updated_at, last_change)
      SELECT ${base} + n.i, '${prefix}-' || ${padded}, ${time}, ${time}, 'published' FROM n`);
    const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;
    await q.unsafe(`${counting}
      INSERT INTO revisions (page_id, title, summary, body, body_html, search_text, published_at, kind)
      SELECT ${base} + n.i, 'Generated page ' || ${padded}, 'Summary of page ' || ${padded},
        CASE WHEN n.i % 4 = 0 THEN ${quote(code.md)} ELSE ${quote(plain.md)} END,
        CASE WHEN n.i % 4 = 0 THEN ${quote(code.html)} ELSE ${quote(plain.html)} END,
        CASE WHEN n.i % 4 = 0 THEN ${quote(searchTextOfHtml(code.html))}
             ELSE ${quote(searchTextOfHtml(plain.html))} END,
        ${time}, 'post'
      FROM n`);
    // Posts, listed as the write model lists a published post (migration 14, posts.ts).
    await q.unsafe(`${counting}
      INSERT INTO published_posts (page_id, first_published_at) SELECT ${base} + n.i, ${time} FROM n`);
    // UPDATE … FROM (both engines): a correlated subquery per row took PostgreSQL 80 s at
    // 10 000 pages, planned before the new rows had statistics.
    await q.unsafe(`
      UPDATE pages SET published_revision_id = r.id FROM revisions r
      WHERE r.page_id = pages.id AND pages.id > ${base} AND pages.id <= ${base + count}`);
    await q`UPDATE settings SET value = ${String(base + count)} WHERE key = 'last_page_id'`;
    bumped = await version.bump(q);
    return { firstId: base + 1, lastId: base + count };
  });
  await version.committed(bumped);
  return range;
}
