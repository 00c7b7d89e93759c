import type { Migration } from './index';

// Visitors' search at 100 000 pages on SQLite (issue 25, docs/decisions/0033, second amendment):
// a second FTS5 index of the same published text holding only the newest pages, so a search
// that matches most of the site is ranked inside a fixed window. On the site-wide index every
// such search cost as much as its number of matches: bm25 counts the pages holding each term
// over the whole table (once per statement) and a prefix builds its whole list of matches in
// memory each time a statement names it.
//
// `public_search_recent` holds exactly the published pages whose id is at least
// `public_search_recent_floor.id`: every new page raises the floor to its id - 3 999 (page
// ids grow with creation and are never reused: settings.last_page_id), and what falls below
// the floor leaves. So it holds at most 4 000 pages (NEWEST_WINDOW in public-search.ts, written
// out here because a migration does not change with the code), and when at least 2 000 of them
// match a search, they are its newest 2 000 matches on the whole site — the ones the site-wide
// index would have ranked. The floor never goes down: an unpublished page leaves a gap rather
// than pulling an older page in, and a search with fewer matches in the window asks the
// site-wide index as before. Same columns, tokenizer and rank as migration 15's table.
//
// PostgreSQL needs nothing: it reads its newest pages through the primary key (0033's first
// amendment).
const SQLITE = `
CREATE VIRTUAL TABLE public_search_recent USING fts5(
  title, summary, body,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
INSERT INTO public_search_recent (public_search_recent, rank) VALUES ('rank', 'bm25(10.0, 4.0, 1.0)');
CREATE TABLE public_search_recent_floor (id INTEGER NOT NULL);
INSERT INTO public_search_recent_floor (id) SELECT MAX(1,
  COALESCE((SELECT CAST(value AS INTEGER) FROM settings WHERE key = 'last_page_id'), 0) - 3999,
  COALESCE((SELECT MAX(id) FROM pages), 0) - 3999);
INSERT INTO public_search_recent (rowid, title, summary, body)
  SELECT p.id, r.title, r.summary, r.search_text FROM pages p
  JOIN revisions r ON r.id = p.published_revision_id
  WHERE p.id >= (SELECT id FROM public_search_recent_floor);
CREATE TRIGGER public_search_recent_page_in AFTER INSERT ON pages BEGIN
  UPDATE public_search_recent_floor SET id = MAX(id, NEW.id - 3999);
  DELETE FROM public_search_recent WHERE rowid < (SELECT id FROM public_search_recent_floor);
  INSERT INTO public_search_recent (rowid, title, summary, body)
    SELECT NEW.id, r.title, r.summary, r.search_text FROM revisions r
    WHERE r.id = NEW.published_revision_id
      AND NEW.id >= (SELECT id FROM public_search_recent_floor);
END;
CREATE TRIGGER public_search_recent_page_up AFTER UPDATE OF published_revision_id ON pages
WHEN OLD.published_revision_id IS NOT NEW.published_revision_id BEGIN
  DELETE FROM public_search_recent WHERE rowid = NEW.id;
  INSERT INTO public_search_recent (rowid, title, summary, body)
    SELECT NEW.id, r.title, r.summary, r.search_text FROM revisions r
    WHERE r.id = NEW.published_revision_id
      AND NEW.id >= (SELECT id FROM public_search_recent_floor);
END;
CREATE TRIGGER public_search_recent_page_out AFTER DELETE ON pages BEGIN
  DELETE FROM public_search_recent WHERE rowid = OLD.id;
END;
`;

export const migration028: Migration = {
  id: 28,
  name: 'recent-public-search',
  sqlite: SQLITE,
  postgres: '',
};
