import type { Migration } from './index';

// The editors' dashboard at 100 000 pages (issue 25): it reads one page of rows, filtered,
// sorted and searched in SQL through indexes, never the whole site. What it lists is a page's
// current title (its draft's, else its published revision's) and state ('draft-only',
// 'changed' = published with a newer draft, 'published'): both live in `drafts` and
// `revisions`, so they are kept on `pages` (columns `title`, `state`) where one index can sort
// and filter them together with `updated_at` and `slug`. Search covers the current title, the
// slug and the current text (the draft's if any: editors search what they are writing) —
// SQLite in an FTS5 table (rowid = page id, contentless: the text already lives in drafts and
// revisions), PostgreSQL in a `tsvector` column with a GIN index. All of it is kept in step by
// triggers, not by the write model, so every write path (editor, CLI, import, restore, `db
// copy`, which copies only the base columns and lets the target's triggers rebuild these) stays
// right by construction. `page_counts` keeps how many pages are in each state (the filter's
// labels), so the dashboard never counts the table. Existing rows are filled in here.
// Visitors never read any of it.
export const migration010: Migration = {
  id: 10,
  name: 'page-listing-and-search',
  sqlite: `
ALTER TABLE pages ADD COLUMN title TEXT NOT NULL DEFAULT '';
ALTER TABLE pages ADD COLUMN state TEXT NOT NULL DEFAULT 'draft-only';
CREATE VIRTUAL TABLE page_search USING fts5(
  title, slug, body, content = '', contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 2'
);
CREATE INDEX pages_by_change ON pages(updated_at DESC, slug);
CREATE INDEX pages_by_title ON pages(LOWER(title), slug);
CREATE INDEX pages_state_by_change ON pages(state, updated_at DESC, slug);
CREATE INDEX pages_state_by_title ON pages(state, LOWER(title), slug);
CREATE TRIGGER page_listing_draft_in AFTER INSERT ON drafts BEGIN
  UPDATE pages SET title = NEW.title,
    state = CASE WHEN published_revision_id IS NULL THEN 'draft-only' ELSE 'changed' END
  WHERE id = NEW.page_id;
  DELETE FROM page_search WHERE rowid = NEW.page_id;
  INSERT INTO page_search (rowid, title, slug, body)
    SELECT id, NEW.title, slug, NEW.body FROM pages WHERE id = NEW.page_id;
END;
CREATE TRIGGER page_listing_draft_up AFTER UPDATE OF title, body ON drafts BEGIN
  UPDATE pages SET title = NEW.title WHERE id = NEW.page_id;
  DELETE FROM page_search WHERE rowid = NEW.page_id;
  INSERT INTO page_search (rowid, title, slug, body)
    SELECT id, NEW.title, slug, NEW.body FROM pages WHERE id = NEW.page_id;
END;
CREATE TRIGGER page_listing_draft_out AFTER DELETE ON drafts BEGIN
  UPDATE pages SET
    title = COALESCE((SELECT r.title FROM revisions r WHERE r.id = pages.published_revision_id), ''),
    state = CASE WHEN published_revision_id IS NULL THEN 'draft-only' ELSE 'published' END
  WHERE id = OLD.page_id;
  DELETE FROM page_search WHERE rowid = OLD.page_id;
  INSERT INTO page_search (rowid, title, slug, body)
    SELECT p.id, r.title, p.slug, r.body FROM pages p JOIN revisions r ON r.id = p.published_revision_id
    WHERE p.id = OLD.page_id;
END;
CREATE TRIGGER page_listing_page_up AFTER UPDATE OF slug, published_revision_id ON pages BEGIN
  UPDATE pages SET
    title = COALESCE((SELECT d.title FROM drafts d WHERE d.page_id = NEW.id),
                     (SELECT r.title FROM revisions r WHERE r.id = NEW.published_revision_id), ''),
    state = CASE WHEN NEW.published_revision_id IS NULL THEN 'draft-only'
                 WHEN EXISTS (SELECT 1 FROM drafts d WHERE d.page_id = NEW.id) THEN 'changed'
                 ELSE 'published' END
  WHERE id = NEW.id;
  DELETE FROM page_search WHERE rowid = NEW.id;
  INSERT INTO page_search (rowid, title, slug, body)
    SELECT p.id, p.title, p.slug,
      COALESCE((SELECT d.body FROM drafts d WHERE d.page_id = p.id),
               (SELECT r.body FROM revisions r WHERE r.id = p.published_revision_id), '')
    FROM pages p WHERE p.id = NEW.id;
END;
CREATE TRIGGER page_listing_page_out AFTER DELETE ON pages BEGIN
  DELETE FROM page_search WHERE rowid = OLD.id;
END;
UPDATE pages SET
  title = COALESCE((SELECT d.title FROM drafts d WHERE d.page_id = pages.id),
                   (SELECT r.title FROM revisions r WHERE r.id = pages.published_revision_id), ''),
  state = CASE WHEN published_revision_id IS NULL THEN 'draft-only'
               WHEN EXISTS (SELECT 1 FROM drafts d WHERE d.page_id = pages.id) THEN 'changed'
               ELSE 'published' END;
INSERT INTO page_search (rowid, title, slug, body)
  SELECT p.id, p.title, p.slug,
    COALESCE((SELECT d.body FROM drafts d WHERE d.page_id = p.id),
             (SELECT r.body FROM revisions r WHERE r.id = p.published_revision_id), '')
  FROM pages p;
CREATE TABLE page_counts (state TEXT PRIMARY KEY, n INTEGER NOT NULL);
INSERT INTO page_counts (state, n)
  SELECT s.state, (SELECT COUNT(*) FROM pages p WHERE p.state = s.state)
  FROM (SELECT 'draft-only' AS state UNION ALL SELECT 'changed' UNION ALL SELECT 'published') s;
CREATE TRIGGER page_counts_in AFTER INSERT ON pages BEGIN
  UPDATE page_counts SET n = n + 1 WHERE state = NEW.state;
END;
CREATE TRIGGER page_counts_out AFTER DELETE ON pages BEGIN
  UPDATE page_counts SET n = n - 1 WHERE state = OLD.state;
END;
CREATE TRIGGER page_counts_up AFTER UPDATE OF state ON pages WHEN OLD.state <> NEW.state BEGIN
  UPDATE page_counts SET n = n - 1 WHERE state = OLD.state;
  UPDATE page_counts SET n = n + 1 WHERE state = NEW.state;
END;
`,
  // One function recomputes a page's listing and search columns from its draft and published
  // revision; the triggers call it, by primary keys only (a join the planner might scan would
  // make a large import quadratic). The slug is indexed with its hyphens as spaces too: the
  // parser reads "draft-0001" as "draft" and "-0001", and "0001" would not be found, while
  // SQLite's tokenizer splits at every hyphen. It updates only title, state and search, so the trigger on
  // pages (which watches slug and published_revision_id) does not fire again.
  postgres: `
ALTER TABLE pages ADD COLUMN title TEXT NOT NULL DEFAULT '';
ALTER TABLE pages ADD COLUMN state TEXT NOT NULL DEFAULT 'draft-only';
ALTER TABLE pages ADD COLUMN search tsvector NOT NULL DEFAULT ''::tsvector;
CREATE FUNCTION folio_page_listing(page INTEGER) RETURNS void LANGUAGE sql AS $$
  UPDATE pages p SET (title, state, search) = (
    SELECT c.title, c.state,
      setweight(to_tsvector('simple', c.title), 'A')
        || setweight(to_tsvector('simple', p.slug || ' ' || replace(p.slug, '-', ' ')), 'A')
        || to_tsvector('simple', c.body)
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
$$;
CREATE FUNCTION folio_page_listing_of_draft() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN PERFORM folio_page_listing(OLD.page_id);
  ELSE PERFORM folio_page_listing(NEW.page_id);
  END IF;
  RETURN NULL;
END;
$$;
CREATE FUNCTION folio_page_listing_of_page() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM folio_page_listing(NEW.id);
  RETURN NULL;
END;
$$;
CREATE TRIGGER page_listing_draft AFTER INSERT OR DELETE OR UPDATE OF title, body ON drafts
  FOR EACH ROW EXECUTE FUNCTION folio_page_listing_of_draft();
CREATE TRIGGER page_listing_page AFTER INSERT OR UPDATE OF slug, published_revision_id ON pages
  FOR EACH ROW EXECUTE FUNCTION folio_page_listing_of_page();
CREATE INDEX pages_by_change ON pages(updated_at DESC, slug);
CREATE INDEX pages_by_title ON pages(LOWER(title), slug);
CREATE INDEX pages_state_by_change ON pages(state, updated_at DESC, slug);
CREATE INDEX pages_state_by_title ON pages(state, LOWER(title), slug);
CREATE INDEX pages_search ON pages USING GIN (search);
SELECT folio_page_listing(id) FROM pages;
CREATE TABLE page_counts (state TEXT PRIMARY KEY, n INTEGER NOT NULL);
INSERT INTO page_counts (state, n)
  SELECT s.state, (SELECT COUNT(*) FROM pages p WHERE p.state = s.state)
  FROM (VALUES ('draft-only'), ('changed'), ('published')) AS s(state);
CREATE FUNCTION folio_page_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE page_counts SET n = n - 1 WHERE state = OLD.state;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    UPDATE page_counts SET n = n + 1 WHERE state = NEW.state;
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER page_counts_in_out AFTER INSERT OR DELETE ON pages
  FOR EACH ROW EXECUTE FUNCTION folio_page_counts();
CREATE TRIGGER page_counts_up AFTER UPDATE OF state ON pages
  FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state) EXECUTE FUNCTION folio_page_counts();
`,
};
