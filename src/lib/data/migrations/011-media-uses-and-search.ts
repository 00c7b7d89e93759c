import { mediaRefsOf } from '../../media/media-refs';
import type { Query } from '../db';
import type { Engine, Migration } from './index';

// The media library at 100 000 pages (issue 25): it reads one page of images, newest first
// (keyset on `media_by_upload`), searched by file name and alt text through the engine's
// full-text search (SQLite FTS5 `media_search`, PostgreSQL `media.search`), and says where each
// image is used from `media_uses` instead of reading every page's HTML. Which images a text
// uses is read from its rendered HTML by media-refs' one rule (mediaRefsOf: what the browser
// will ask for) when the HTML is written, and kept beside it in `media_refs` (a JSON list of
// hashes) on drafts and revisions. Triggers turn those lists into `media_uses` rows — a page's
// draft's images and its published revision's — so every write path (save, publish, unpublish,
// discard, delete, restore, import, `db copy`, which copies the lists with their HTML and lets
// the target's triggers rebuild the uses) stays right by construction. Existing texts are
// read once here, a batch at a time (`backfill`).
const SQLITE = `
ALTER TABLE drafts ADD COLUMN media_refs TEXT NOT NULL DEFAULT '[]';
ALTER TABLE revisions ADD COLUMN media_refs TEXT NOT NULL DEFAULT '[]';
CREATE TABLE media_uses (
  page_id INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  hash TEXT NOT NULL,
  PRIMARY KEY (page_id, kind, hash)
) WITHOUT ROWID;
CREATE INDEX media_uses_by_hash ON media_uses(hash, page_id);
CREATE TRIGGER media_uses_draft_in AFTER INSERT ON drafts BEGIN
  INSERT OR IGNORE INTO media_uses (page_id, kind, hash)
    SELECT NEW.page_id, 'draft', value FROM json_each(NEW.media_refs);
END;
CREATE TRIGGER media_uses_draft_up AFTER UPDATE OF media_refs ON drafts
WHEN OLD.media_refs IS NOT NEW.media_refs BEGIN
  DELETE FROM media_uses WHERE page_id = OLD.page_id AND kind = 'draft';
  INSERT OR IGNORE INTO media_uses (page_id, kind, hash)
    SELECT NEW.page_id, 'draft', value FROM json_each(NEW.media_refs);
END;
CREATE TRIGGER media_uses_draft_out AFTER DELETE ON drafts BEGIN
  DELETE FROM media_uses WHERE page_id = OLD.page_id AND kind = 'draft';
END;
CREATE TRIGGER media_uses_published AFTER UPDATE OF published_revision_id ON pages BEGIN
  DELETE FROM media_uses WHERE page_id = NEW.id AND kind = 'published';
  INSERT OR IGNORE INTO media_uses (page_id, kind, hash)
    SELECT NEW.id, 'published', j.value FROM revisions r, json_each(r.media_refs) j
    WHERE r.id = NEW.published_revision_id;
END;
CREATE INDEX media_by_upload ON media(created_at DESC, id DESC);
CREATE VIRTUAL TABLE media_search USING fts5(
  filename, alt, content = '', contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER media_search_in AFTER INSERT ON media BEGIN
  INSERT INTO media_search (rowid, filename, alt) VALUES (NEW.id, NEW.filename, NEW.alt);
END;
CREATE TRIGGER media_search_up AFTER UPDATE OF filename, alt ON media BEGIN
  DELETE FROM media_search WHERE rowid = OLD.id;
  INSERT INTO media_search (rowid, filename, alt) VALUES (NEW.id, NEW.filename, NEW.alt);
END;
CREATE TRIGGER media_search_out AFTER DELETE ON media BEGIN
  DELETE FROM media_search WHERE rowid = OLD.id;
END;
INSERT INTO media_search (rowid, filename, alt) SELECT id, filename, alt FROM media;
`;

// The same on PostgreSQL: the lists are JSON text read by json_array_elements_text; the search
// is a generated tsvector (`db copy` leaves it to the target) over the file name and alt text
// with punctuation as spaces, so "IMG_2034.jpg" is found by "2034" (the parser would read it as
// one host name), as SQLite's tokenizer splits it.
const POSTGRES = `
ALTER TABLE drafts ADD COLUMN media_refs TEXT NOT NULL DEFAULT '[]';
ALTER TABLE revisions ADD COLUMN media_refs TEXT NOT NULL DEFAULT '[]';
CREATE TABLE media_uses (
  page_id INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  hash TEXT NOT NULL,
  PRIMARY KEY (page_id, kind, hash)
);
CREATE INDEX media_uses_by_hash ON media_uses(hash, page_id);
CREATE FUNCTION folio_media_uses_of_draft() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    DELETE FROM media_uses WHERE page_id = OLD.page_id AND kind = 'draft';
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO media_uses (page_id, kind, hash)
      SELECT NEW.page_id, 'draft', value FROM json_array_elements_text(CAST(NEW.media_refs AS json))
      ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END;
$$;
CREATE FUNCTION folio_media_uses_of_page() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM media_uses WHERE page_id = NEW.id AND kind = 'published';
  INSERT INTO media_uses (page_id, kind, hash)
    SELECT NEW.id, 'published', j.value
    FROM revisions r, json_array_elements_text(CAST(r.media_refs AS json)) j
    WHERE r.id = NEW.published_revision_id
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$;
CREATE TRIGGER media_uses_draft AFTER INSERT OR DELETE ON drafts
  FOR EACH ROW EXECUTE FUNCTION folio_media_uses_of_draft();
CREATE TRIGGER media_uses_draft_up AFTER UPDATE OF media_refs ON drafts
  FOR EACH ROW WHEN (OLD.media_refs IS DISTINCT FROM NEW.media_refs)
  EXECUTE FUNCTION folio_media_uses_of_draft();
CREATE TRIGGER media_uses_page AFTER UPDATE OF published_revision_id ON pages
  FOR EACH ROW EXECUTE FUNCTION folio_media_uses_of_page();
CREATE INDEX media_by_upload ON media(created_at DESC, id DESC);
ALTER TABLE media ADD COLUMN search tsvector GENERATED ALWAYS AS (
  to_tsvector('simple', regexp_replace(filename || ' ' || alt, '[[:punct:]]+', ' ', 'g'))
) STORED;
CREATE INDEX media_search ON media USING GIN (search);
`;

/** Texts read per batch by the backfill: what it holds in memory at once. */
const BACKFILL_BATCH = 500;

/**
 * Reads which images each existing draft and revision uses from its HTML (only texts that
 * name `/media/` at all), a batch at a time in key order, then fills `media_uses` from them.
 */
async function backfill(q: Query, engine: Engine): Promise<void> {
  for (const table of [
    { name: 'drafts', key: 'page_id' },
    { name: 'revisions', key: 'id' },
  ] as const) {
    let after = 0;
    for (;;) {
      const rows =
        table.name === 'drafts'
          ? await q<{ key: number | string; body_html: string }>`
              SELECT page_id AS key, body_html FROM drafts
              WHERE page_id > ${after} AND body_html LIKE '%/media/%'
              ORDER BY page_id LIMIT ${BACKFILL_BATCH}`
          : await q<{ key: number | string; body_html: string }>`
              SELECT id AS key, body_html FROM revisions
              WHERE id > ${after} AND body_html LIKE '%/media/%'
              ORDER BY id LIMIT ${BACKFILL_BATCH}`;
      for (const row of rows) {
        const refs = mediaRefsOf(row.body_html);
        if (refs === '[]') continue;
        if (table.name === 'drafts')
          await q`UPDATE drafts SET media_refs = ${refs} WHERE page_id = ${Number(row.key)}`;
        else await q`UPDATE revisions SET media_refs = ${refs} WHERE id = ${Number(row.key)}`;
      }
      if (rows.length < BACKFILL_BATCH) break;
      after = Number(rows.at(-1)?.key);
    }
  }
  // The drafts' uses came with their updates (the trigger); the published ones from here.
  if (engine === 'sqlite')
    await q`
      INSERT OR IGNORE INTO media_uses (page_id, kind, hash)
      SELECT p.id, 'published', j.value
      FROM pages p JOIN revisions r ON r.id = p.published_revision_id, json_each(r.media_refs) j
      WHERE r.media_refs <> '[]'`;
  else
    await q`
      INSERT INTO media_uses (page_id, kind, hash)
      SELECT p.id, 'published', j.value
      FROM pages p JOIN revisions r ON r.id = p.published_revision_id,
        json_array_elements_text(CAST(r.media_refs AS json)) j
      WHERE r.media_refs <> '[]'
      ON CONFLICT DO NOTHING`;
}

export const migration011: Migration = {
  id: 11,
  name: 'media-uses-and-search',
  sqlite: SQLITE,
  postgres: POSTGRES,
  backfill,
};
