import type { Migration } from './index';

// Published pages newest first, read from an index instead of a sort of the whole table
// (issue 25): the feed reads its 20 entries and the sitemap walks every published page in
// pages of 50 000 (keyset on published_at, page_id) without reading the revisions' rows, whose
// bodies made SQLite follow overflow pages for each one. The index holds every revision, old
// ones too; a read keeps the published one by looking its id up in pages_published_revision.
// (Joined on `p.id = r.page_id AND p.published_revision_id = r.id`, PostgreSQL multiplied the two
// conditions' selectivities, expected one row, and sorted the whole join for it.) SQLite's
// index carries the rowid (r.id) by itself; PostgreSQL's names it, for index-only scans.
export const migration009: Migration = {
  id: 9,
  name: 'published-order',
  sqlite: `
CREATE INDEX revisions_published ON revisions(published_at, page_id);
CREATE INDEX pages_published_revision ON pages(published_revision_id);
`,
  postgres: `
CREATE INDEX revisions_published ON revisions(published_at, page_id, id);
CREATE INDEX pages_published_revision ON pages(published_revision_id);
`,
};
