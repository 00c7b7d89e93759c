// Many published pages, made cheaply for scale tests and bench/scale-public.ts: one INSERT …
// SELECT over a counting CTE per table, inside one write transaction, on either engine. The
// pages are what `folio import` would leave (published, no draft, no navigation chosen) with
// realistic bodies: about 1.5 KB of Markdown, a quarter of them with a highlighted code block,
// rendered once by the real renderer and shared (with the plain text visitors' search indexes). Page ids come from the same counter the store
// uses (settings.last_page_id), so pages made afterwards by the store do not collide.
// With `topics` and `authors` (bench/scale-publication.ts) every page is also tagged and
// bylined as a publish would leave it: topics and authors rows, each revision's JSON lists and
// the visitors' read tables (published_post_topics, published_post_authors), skewed so that
// one topic is big (half the posts) and the others small (see topicOfPage).

import { searchTextOfHtml } from '../src/lib/content/public-search-text';
import { contentVersionOf } from '../src/lib/data/content-version';
import type { Database, Query } from '../src/lib/data/db';
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
 * The topic (1…`topics`) the `n`th generated page is tagged with: half of all pages go to
 * topic 1 (a big topic), the other half spread over the rest (small ones). A SQL expression
 * over `n.i` and the same rule in TypeScript, so a bench knows each topic's size.
 */
const topicExpression = (topics: number) =>
  topics <= 1 ? '1' : `CASE WHEN n.i % 2 = 0 THEN 1 ELSE 2 + (n.i / 2) % ${topics - 1} END`;
export function topicOfPage(n: number, topics: number): number {
  return topics <= 1 || n % 2 === 0 ? 1 : 2 + (Math.floor(n / 2) % (topics - 1));
}
/** The author (1…`authors`) of the `n`th page; every tenth has a second, the next one. */
export const authorsOfPage = (n: number, authors: number): number[] =>
  n % 10 === 0 && authors > 1 ? [1 + (n % authors), 1 + ((n + 1) % authors)] : [1 + (n % authors)];

/**
 * Publishes `count` pages `<prefix>-000001`… in one transaction, one second apart (the last
 * newest), and announces a new content version, as an import would. Returns their ids' range.
 */
export async function insertPublishedPages(
  db: Database,
  count: number,
  {
    prefix = 'gen',
    publishedFrom = '2025-01-01T00:00:00Z',
    topics = 0,
    authors = 0,
  }: { prefix?: string; publishedFrom?: string; topics?: number; authors?: number } = {},
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
    // PostgreSQL: migration 10's count triggers update the one `page_counts` row per page
    // inserted or changed; in one transaction each update walks every earlier version of
    // that row, so the insert was quadratic (100 000 pages: stopped after 30 minutes). Off
    // for this transaction (ALTER TABLE is transactional), the counts recomputed at the end
    // as migration 10 computes them. The per-row triggers that remain each UPDATE one page by
    // id, planned from the statistics of the table before this insert: the primary key
    // rather than a sequential scan per row.
    if (!sqlite) {
      await q.unsafe('ALTER TABLE pages DISABLE TRIGGER page_counts_in_out');
      await q.unsafe('ALTER TABLE pages DISABLE TRIGGER page_counts_up');
      await q.unsafe('SET LOCAL enable_seqscan = off');
    }
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
    if (!sqlite) {
      await q.unsafe('ALTER TABLE pages ENABLE TRIGGER page_counts_in_out');
      await q.unsafe('ALTER TABLE pages ENABLE TRIGGER page_counts_up');
      await q.unsafe(
        'UPDATE page_counts SET n = (SELECT COUNT(*) FROM pages p WHERE p.state = page_counts.state)',
      );
      await q.unsafe('SET LOCAL enable_seqscan = on');
    }
    if (topics > 0 || authors > 0)
      await tagAndByline(q, { base, count, prefix, topics, authors, counting, time, sqlite });
    await q`UPDATE settings SET value = ${String(base + count)} WHERE key = 'last_page_id'`;
    bumped = await version.bump(q);
    return { firstId: base + 1, lastId: base + count };
  });
  await version.committed(bumped);
  return range;
}

/** The slug of generated topic or author `n` (from 1). */
export const generatedTopicSlug = (prefix: string, n: number) =>
  `${prefix}-topic-${String(n).padStart(2, '0')}`;
export const generatedAuthorSlug = (prefix: string, n: number) =>
  `${prefix}-author-${String(n).padStart(2, '0')}`;

/** Topics and authors for pages base+1…base+count, and every post's tags and bylines. */
async function tagAndByline(
  q: Query,
  options: {
    base: number;
    count: number;
    prefix: string;
    topics: number;
    authors: number;
    counting: string;
    time: string;
    sqlite: boolean;
  },
) {
  const { base, count, prefix, topics, authors, counting, time, sqlite } = options;
  const two = (expression: string) =>
    sqlite ? `printf('%02d', ${expression})` : `lpad(CAST(${expression} AS TEXT), 2, '0')`;
  const range = (alias: string) =>
    `${alias}.page_id > ${base} AND ${alias}.page_id <= ${base + count}`;
  const at = new Date().toISOString();
  for (let n = 1; n <= topics; n++)
    await q`INSERT INTO topics (name, slug, created_at, updated_at)
      VALUES (${`Generated topic ${n}`}, ${generatedTopicSlug(prefix, n)}, ${at}, ${at})`;
  for (let n = 1; n <= authors; n++)
    await q`INSERT INTO authors (slug, name, bio, created_at, updated_at)
      VALUES (${generatedAuthorSlug(prefix, n)}, ${`Generated Author ${n}`},
        'Writes generated pages.', ${at}, ${at})`;
  if (topics > 0) {
    // Joined by slug: the ids are whatever each engine gave the rows just made.
    await q.unsafe(`${counting}
      INSERT INTO published_post_topics (topic_id, page_id, first_published_at)
      SELECT t.id, ${base} + n.i, ${time} FROM n
      JOIN topics t ON t.slug = '${prefix}-topic-' || ${two(topicExpression(topics))}`);
    await q.unsafe(`
      UPDATE revisions SET topics = '[' || pt.topic_id || ']'
      FROM published_post_topics pt WHERE pt.page_id = revisions.page_id AND ${range('pt')}`);
  }
  if (authors > 0) {
    const first = `1 + n.i % ${authors}`;
    const second = `1 + (n.i + 1) % ${authors}`;
    await q.unsafe(`${counting}
      INSERT INTO published_post_authors (author_id, page_id, first_published_at)
      SELECT a.id, ${base} + n.i, ${time} FROM n
      JOIN authors a ON a.slug = '${prefix}-author-' || ${two(first)}
      UNION ALL
      SELECT a.id, ${base} + n.i, ${time} FROM n
      JOIN authors a ON a.slug = '${prefix}-author-' || ${two(second)}
      WHERE n.i % 10 = 0 AND ${authors} > 1`);
    await q.unsafe(`
      UPDATE revisions SET authors = CASE WHEN x.c = 1 THEN '[' || x.a || ']'
        ELSE '[' || x.a || ',' || x.b || ']' END
      FROM (SELECT page_id, MIN(author_id) AS a, MAX(author_id) AS b, COUNT(*) AS c
            FROM published_post_authors pa WHERE ${range('pa')} GROUP BY page_id) x
      WHERE x.page_id = revisions.page_id`);
  }
}
