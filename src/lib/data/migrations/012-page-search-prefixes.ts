import type { Migration } from './index';

// The dashboard's search at 100 000 pages (issue 25). SQLite's FTS5 answers a prefix query
// ("page"*, every word an editor types is one) by reading and merging the whole list of every
// term with that prefix before its first row, and `page_search` (migration 10) kept each
// word's positions too: a word on most pages cost 30–90 ms before the first of 2 001
// candidates, and the broad walk merged it again. Editors' searches use none of what positions
// serve (phrases, NEAR, ranking: each word is a single-token prefix, and all must match), so
// the index is made again without them (`detail = none`: a third of the size) and with prefix
// indexes for words of 2 to 6 letters, which make such a query one list read in order (0.2 ms
// for the first 2 001 of 100 000 matches). Longer words still merge, on the smaller lists.
// The triggers of migration 10 write to it by name and are unchanged. PostgreSQL's tsvector
// and GIN index need nothing here.
export const migration012: Migration = {
  id: 12,
  name: 'page-search-prefixes',
  sqlite: `
DROP TABLE page_search;
CREATE VIRTUAL TABLE page_search USING fts5(
  title, slug, body, content = '', contentless_delete = 1, detail = none,
  prefix = '2 3 4 5 6', tokenize = 'unicode61 remove_diacritics 2'
);
INSERT INTO page_search (rowid, title, slug, body)
  SELECT p.id, p.title, p.slug,
    COALESCE((SELECT d.body FROM drafts d WHERE d.page_id = p.id),
             (SELECT r.body FROM revisions r WHERE r.id = p.published_revision_id), '')
  FROM pages p;
`,
  postgres: `SELECT 1;`,
};
