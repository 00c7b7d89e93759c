import type { Migration } from './index';

// Search that ignores accents on PostgreSQL too (issue 25): "cafe" finds "Café", "Muller" finds
// "Müller", as SQLite's FTS5 tokenizer (unicode61 remove_diacritics 2) already does. The pages'
// and the media library's search columns are rebuilt with a text search configuration of
// Folio's own, `folio_search`: PostgreSQL's `simple` with the `unaccent` dictionary in front.
// Queries name the same configuration (SEARCH_CONFIG in page-list-params.ts), so a typed
// "Café" is unaccented the same way.
//
// `unaccent` ships with PostgreSQL (contrib) and is a trusted extension: a database owner may
// create it without being a superuser. Where it cannot be created (a host without contrib, a
// role without CREATE on the database), the configuration is `simple` alone and search matches
// accents exactly, as before: the README says so, and nothing else depends on it.
//
// Rebuilding touches every page once (one UPDATE, through the listing function every trigger
// already uses); the media column is a generated one, so it is dropped and added again.
const POSTGRES = `
DO $$
BEGIN
  BEGIN
    CREATE EXTENSION IF NOT EXISTS unaccent;
  EXCEPTION WHEN OTHERS THEN
    NULL; -- not available here: folio_search stays plain simple (see above)
  END;
  CREATE TEXT SEARCH CONFIGURATION folio_search (COPY = pg_catalog.simple);
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'unaccent') THEN
    ALTER TEXT SEARCH CONFIGURATION folio_search
      ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part, numword,
        numhword, hword_numpart
      WITH unaccent, simple;
  END IF;
END
$$;
CREATE OR REPLACE FUNCTION folio_page_listing(page INTEGER) RETURNS void LANGUAGE sql AS $fn$
  UPDATE pages p SET (title, state, search) = (
    SELECT c.title, c.state,
      setweight(to_tsvector('folio_search', c.title), 'A')
        || setweight(to_tsvector('folio_search', p.slug || ' ' || replace(p.slug, '-', ' ')), 'A')
        || to_tsvector('folio_search', c.body)
    FROM (
      SELECT COALESCE(d.title, r.title, '') AS title, COALESCE(d.body, r.body, '') AS body,
        CASE WHEN p.published_revision_id IS NULL THEN 'draft-only'
             WHEN d.page_id IS NOT NULL THEN 'changed' ELSE 'published' END AS state
      FROM (SELECT 1) AS one
      LEFT JOIN drafts d ON d.page_id = p.id
      LEFT JOIN revisions r ON r.id = p.published_revision_id
    ) c
  )
  WHERE p.id = page;
$fn$;
SELECT folio_page_listing(id) FROM pages;
DROP INDEX media_search;
ALTER TABLE media DROP COLUMN search;
ALTER TABLE media ADD COLUMN search tsvector GENERATED ALWAYS AS (
  to_tsvector('folio_search', regexp_replace(filename || ' ' || alt, '[[:punct:]]+', ' ', 'g'))
) STORED;
CREATE INDEX media_search ON media USING GIN (search);
`;

export const migration013: Migration = {
  id: 13,
  name: 'accent-insensitive-search',
  // SQLite's search tables were accent-insensitive from the start (migrations 10 and 11).
  sqlite: '',
  postgres: POSTGRES,
};
