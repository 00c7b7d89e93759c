// Owns the media library's reads at any size (issue 25): one page of images, newest first,
// searched by file name and alt text, paged by keyset (never OFFSET), and where each shown
// image is used — read from `media_uses` (migration 11), never from the pages' HTML. Each
// query walks an index (media_by_upload, media_uses_by_hash) or the engine's full-text index
// (SQLite FTS5 `media_search`, PostgreSQL `media.search`), so its cost follows what is shown,
// not how many pages or images the site has.
import 'server-only';
import { ftsQuery, searchTerms } from '../content/page-list';
import { SEARCH_CONFIG } from '../content/page-list-params';
import { type Engine, type Query, sqlTemplate } from '../data/db';
import {
  MEDIA_LIST_SIZE,
  MEDIA_MATCHES_COUNTED,
  type MediaCursor,
  type MediaListQuery,
  type MediaListResult,
  type MediaUse,
  USES_COUNTED,
  USES_SHOWN,
} from './media-list-params';
import { type MediaRow, toItem, type VariantRow } from './media-refs';

type Fragment = { sql: string[]; values: unknown[] };

/** Appends SQL text and, when given, one value after it. */
function add(into: Fragment, sql: string, ...value: [unknown?]) {
  into.sql[into.sql.length - 1] += sql;
  if (value.length > 0) {
    into.values.push(value[0]);
    into.sql.push('');
  }
}

function run<T>(q: Query, fragment: Fragment): Promise<T[]> {
  return q<T>(sqlTemplate(fragment.sql), ...fragment.values);
}

/** `AND m.id IN (…these ids…)`, as one JSON value. */
function idsIn(engine: Engine, ids: readonly number[], into: Fragment) {
  add(
    into,
    engine === 'sqlite'
      ? ' AND m.id IN (SELECT value FROM json_each('
      : ' AND m.id IN (SELECT CAST(value AS INTEGER) FROM json_array_elements_text(CAST(CAST(',
    JSON.stringify(ids),
  );
  add(into, engine === 'sqlite' ? '))' : ' AS text) AS json)))');
}

/** What a search resolved to: nothing, the few matching ids, or a match to test while walking. */
type MediaSearch =
  | { kind: 'none' }
  | { kind: 'ids'; ids: number[] }
  | { kind: 'broad'; match: string };

/**
 * Up to MEDIA_MATCHES_COUNTED matches are looked up by id and sorted (cheap); past it the
 * upload index is walked and each image tested against the match, which finds a page of
 * images within a few hundred (the dashboard's way: content/page-list.ts).
 */
async function resolveSearch(q: Query, engine: Engine, text: string): Promise<MediaSearch> {
  const terms = searchTerms(text);
  if (terms.length === 0) return { kind: 'none' };
  const match = ftsQuery(engine, terms);
  const found =
    engine === 'sqlite'
      ? await q<{ id: number | string }>`
          SELECT rowid AS id FROM media_search WHERE media_search MATCH ${match}
          LIMIT ${MEDIA_MATCHES_COUNTED + 1}`
      : await q<{ id: number | string }>`
          SELECT id FROM media WHERE search @@ to_tsquery(CAST(${SEARCH_CONFIG} AS regconfig), ${match})
          LIMIT ${MEDIA_MATCHES_COUNTED + 1}`;
  const ids = found.map((row) => Number(row.id));
  return ids.length > MEDIA_MATCHES_COUNTED ? { kind: 'broad', match } : { kind: 'ids', ids };
}

/** The library's one statement for a page of images (exported for its query-plan test). */
export function mediaListStatement(
  engine: Engine,
  cursor: MediaCursor | null,
  search: MediaSearch,
  size: number,
): Fragment {
  const list: Fragment = { sql: ['SELECT m.* FROM media m WHERE 1 = 1'], values: [] };
  if (search.kind === 'ids') idsIn(engine, search.ids, list);
  else if (search.kind === 'broad') {
    // Kept off the plan's driving side, so the upload index is walked (see page-list.ts).
    if (engine === 'sqlite') {
      add(
        list,
        ' AND +m.id IN (SELECT rowid FROM media_search WHERE media_search MATCH ',
        search.match,
      );
      add(list, ')');
    } else {
      add(list, ` AND ts_match_vq(m.search, to_tsquery('${SEARCH_CONFIG}', `, search.match);
      add(list, '))');
    }
  }
  // Newest first; walking towards newer images reverses the order, and the rows are turned
  // back after. Written as a range on the time plus a tie-break on the id, so both engines
  // seek the index to the cursor.
  const backwards = cursor?.direction === 'before';
  if (cursor) {
    const [wide, strict] = backwards ? ['>=', '>'] : ['<=', '<'];
    add(list, ` AND m.created_at ${wide} `, cursor.key);
    add(list, ` AND (m.created_at ${strict} `, cursor.key);
    add(list, ` OR m.id ${strict} `, cursor.id);
    add(list, ')');
  }
  const order = backwards ? 'ASC' : 'DESC';
  add(list, ` ORDER BY m.created_at ${order}, m.id ${order} LIMIT `, size + 1);
  return list;
}

/** One page of the library's images, newest first, with where each is used. */
export async function listMedia(
  q: Query,
  engine: Engine,
  query: MediaListQuery,
  { size = MEDIA_LIST_SIZE }: { size?: number } = {},
): Promise<MediaListResult> {
  const { cursor } = query;
  const backwards = cursor?.direction === 'before';
  const search = await resolveSearch(q, engine, query.q);
  const [found, [total]] = await Promise.all([
    run<MediaRow>(q, mediaListStatement(engine, cursor, search, size)),
    q<{ n: number | string }>`SELECT COUNT(*) AS n FROM media`,
  ]);
  const more = found.length > size;
  const rows = found.slice(0, size);
  if (backwards) rows.reverse();
  const at = (row: MediaRow | undefined, direction: MediaCursor['direction']) =>
    row ? { direction, key: row.created_at, id: Number(row.id) } : null;
  const previous = (backwards ? more : cursor !== null) ? at(rows[0], 'before') : null;
  const next = backwards || more ? at(rows.at(-1), 'after') : null;
  const ids = rows.map((row) => Number(row.id));
  const variants = await run<VariantRow>(q, variantsStatement(engine, ids));
  const items = rows.map((row) => toItem(row, variants));
  const all = Number(total?.n ?? 0);
  return {
    items,
    uses: await mediaUses(
      q,
      engine,
      items.map((item) => item.hash),
    ),
    previous,
    next,
    total: all,
    matching:
      search.kind === 'none'
        ? all
        : search.kind === 'ids'
          ? search.ids.length
          : MEDIA_MATCHES_COUNTED + 1,
  };
}

/** The variants' descriptions (never the bytes) of these images, in one statement. */
function variantsStatement(engine: Engine, ids: readonly number[]): Fragment {
  // The variants' key starts with media_id: one index seek per image.
  const statement: Fragment = {
    sql: [
      engine === 'sqlite'
        ? 'SELECT media_id, name, content_type, width, height FROM media_variants WHERE media_id IN (SELECT value FROM json_each('
        : 'SELECT media_id, name, content_type, width, height FROM media_variants WHERE media_id IN (SELECT CAST(value AS INTEGER) FROM json_array_elements_text(CAST(CAST(',
    ],
    values: [],
  };
  add(statement, '', JSON.stringify(ids));
  add(statement, `${engine === 'sqlite' ? '))' : ' AS text) AS json)))'} ORDER BY media_id, name`);
  return statement;
}

/**
 * Where each of these images is used (a published page or a draft): the pages counted, up to
 * USES_COUNTED + 1, and the first USES_SHOWN by page id — each read from media_uses_by_hash,
 * so an image on every page costs its counted rows, not the site.
 */
export async function mediaUses(
  q: Query,
  engine: Engine,
  hashes: readonly string[],
): Promise<Map<string, MediaUse>> {
  const uses = new Map<string, MediaUse>();
  if (hashes.length === 0) return uses;
  const list = JSON.stringify(hashes);
  const rows =
    engine === 'sqlite'
      ? await q<{ hash: string; n: number | string; shown: string | null }>`
          SELECT h.value AS hash,
            (SELECT COUNT(*) FROM (SELECT DISTINCT u.page_id FROM media_uses u
               WHERE u.hash = h.value LIMIT ${USES_COUNTED + 1})) AS n,
            (SELECT json_group_array(json_array(s.slug, s.kind)) FROM (
               SELECT p.slug, u.kind FROM media_uses u JOIN pages p ON p.id = u.page_id
               WHERE u.hash = h.value ORDER BY u.page_id LIMIT ${USES_SHOWN * 2}) s) AS shown
          FROM json_each(${list}) h`
      : await q<{ hash: string; n: number | string; shown: string | null }>`
          SELECT h.value AS hash,
            (SELECT COUNT(*) FROM (SELECT DISTINCT u.page_id FROM media_uses u
               WHERE u.hash = h.value LIMIT ${USES_COUNTED + 1}) c) AS n,
            (SELECT CAST(json_agg(json_build_array(s.slug, s.kind)) AS text) FROM (
               SELECT p.slug, u.kind FROM media_uses u JOIN pages p ON p.id = u.page_id
               WHERE u.hash = h.value ORDER BY u.page_id LIMIT ${USES_SHOWN * 2}) s) AS shown
          FROM json_array_elements_text(CAST(CAST(${list} AS text) AS json)) h(value)`;
  for (const row of rows) {
    const shown = new Map<string, { slug: string; published: boolean; draft: boolean }>();
    for (const [slug, kind] of JSON.parse(row.shown ?? '[]') as [string, string][]) {
      const page = shown.get(slug) ?? { slug, published: false, draft: false };
      if (kind === 'draft') page.draft = true;
      else page.published = true;
      shown.set(slug, page);
    }
    uses.set(row.hash, { pages: Number(row.n), shown: [...shown.values()].slice(0, USES_SHOWN) });
  }
  return uses;
}
