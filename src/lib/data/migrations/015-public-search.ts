import { searchTextOfHtml } from '../../content/public-search-text';
import type { Query } from '../db';
import type { Engine, Migration } from './index';

// Search for visitors (issue 27, `/?q=`): an index of PUBLISHED pages only, separate from the
// editors' one (migration 10 indexes drafts, which must never reach a visitor). It holds each
// published page's title, summary and plain text (`revisions.search_text`: the rendered HTML
// without tags, written at publish by public-search-text.ts, so Markdown syntax and tag names
// are not searchable and snippets read as the page does), stemmed for English, accents
// ignored, title and summary ranked above the text.
//
// Triggers keep it in step with `pages.published_revision_id`, which every publish, unpublish,
// restore, import and `db copy` goes through; a delete removes the row. A rename changes
// nothing here: results take the page's address from `pages` at query time.
//
// SQLite: an FTS5 table that keeps its own copy of the text (snippet() reads it; a contentless
// table cannot make snippets), rowid = page id, `porter` over `unicode61 remove_diacritics 2`,
// bm25 weights title 10, summary 4, text 1 set once as the table's rank.
// PostgreSQL: one row per published page holding a weighted `tsvector` (title A, summary B,
// text D) with a GIN index; the text for ts_headline is read from the revision. Its text search
// configuration, `folio_public_search`, is `english` with `unaccent` in front of the stemmer
// where migration 13 could create the extension, `english` alone where not.
const SQLITE = `
ALTER TABLE revisions ADD COLUMN search_text TEXT NOT NULL DEFAULT '';
CREATE VIRTUAL TABLE public_search USING fts5(
  title, summary, body,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
INSERT INTO public_search (public_search, rank) VALUES ('rank', 'bm25(10.0, 4.0, 1.0)');
CREATE TRIGGER public_search_page_in AFTER INSERT ON pages
WHEN NEW.published_revision_id IS NOT NULL BEGIN
  INSERT INTO public_search (rowid, title, summary, body)
    SELECT NEW.id, r.title, r.summary, r.search_text FROM revisions r
    WHERE r.id = NEW.published_revision_id;
END;
CREATE TRIGGER public_search_page_up AFTER UPDATE OF published_revision_id ON pages
WHEN OLD.published_revision_id IS NOT NEW.published_revision_id BEGIN
  DELETE FROM public_search WHERE rowid = NEW.id;
  INSERT INTO public_search (rowid, title, summary, body)
    SELECT NEW.id, r.title, r.summary, r.search_text FROM revisions r
    WHERE r.id = NEW.published_revision_id;
END;
CREATE TRIGGER public_search_page_out AFTER DELETE ON pages BEGIN
  DELETE FROM public_search WHERE rowid = OLD.id;
END;
`;

const POSTGRES = `
ALTER TABLE revisions ADD COLUMN search_text TEXT NOT NULL DEFAULT '';
DO $$
BEGIN
  CREATE TEXT SEARCH CONFIGURATION folio_public_search (COPY = pg_catalog.english);
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'unaccent') THEN
    ALTER TEXT SEARCH CONFIGURATION folio_public_search
      ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part
      WITH unaccent, english_stem;
  END IF;
END
$$;
CREATE TABLE public_search (
  page_id INTEGER PRIMARY KEY REFERENCES pages(id) ON DELETE CASCADE,
  document tsvector NOT NULL
);
CREATE INDEX public_search_document ON public_search USING GIN (document);
CREATE FUNCTION folio_public_search(page INTEGER, revision INTEGER) RETURNS void LANGUAGE sql AS $fn$
  DELETE FROM public_search WHERE page_id = page;
  INSERT INTO public_search (page_id, document)
    SELECT page,
      setweight(to_tsvector('folio_public_search', r.title), 'A')
        || setweight(to_tsvector('folio_public_search', r.summary), 'B')
        || setweight(to_tsvector('folio_public_search', r.search_text), 'D')
    FROM revisions r WHERE r.id = revision;
$fn$;
CREATE FUNCTION folio_public_search_of_page() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM folio_public_search(NEW.id, NEW.published_revision_id);
  RETURN NULL;
END;
$$;
-- WHEN clauses, so a page made without a published revision (every new page, an import's
-- rows) or a write that leaves the pointer as it was does not call the function at all.
CREATE TRIGGER public_search_page_in AFTER INSERT ON pages
  FOR EACH ROW WHEN (NEW.published_revision_id IS NOT NULL)
  EXECUTE FUNCTION folio_public_search_of_page();
CREATE TRIGGER public_search_page_up AFTER UPDATE OF published_revision_id ON pages
  FOR EACH ROW WHEN (OLD.published_revision_id IS DISTINCT FROM NEW.published_revision_id)
  EXECUTE FUNCTION folio_public_search_of_page();
`;

/** Published revisions read per batch by the backfill: what it holds in memory at once. */
const BACKFILL_BATCH = 200;

/**
 * Computes the plain text of every page's published revision (older revisions are never
 * searched: a restore publishes a new one), a batch at a time in page order, and indexes it.
 */
async function backfill(q: Query, engine: Engine): Promise<void> {
  let after = 0;
  for (;;) {
    const rows = await q<{ page_id: number | string; id: number | string; body_html: string }>`
      SELECT p.id AS page_id, r.id, r.body_html FROM pages p
      JOIN revisions r ON r.id = p.published_revision_id
      WHERE p.id > ${after} ORDER BY p.id LIMIT ${BACKFILL_BATCH}`;
    for (const row of rows) {
      const id = Number(row.id);
      await q`UPDATE revisions SET search_text = ${searchTextOfHtml(row.body_html)} WHERE id = ${id}`;
      if (engine === 'sqlite')
        await q`
          INSERT INTO public_search (rowid, title, summary, body)
          SELECT ${Number(row.page_id)}, title, summary, search_text FROM revisions WHERE id = ${id}`;
      else await q`SELECT folio_public_search(${Number(row.page_id)}, ${id})`;
    }
    if (rows.length < BACKFILL_BATCH) break;
    after = Number(rows.at(-1)?.page_id);
  }
}

export const migration015: Migration = {
  id: 15,
  name: 'public-search',
  sqlite: SQLITE,
  postgres: POSTGRES,
  backfill,
};
