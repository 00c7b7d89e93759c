import type { Migration } from './index';

// Bylines (issue 27): a post names its authors (migration 17) like it names its topics — a JSON
// list of author ids on drafts and revisions, so they are drafted and published with the text.
// `published_post_authors` is what visitors read, kept in step with each publish by posts.ts:
// an author's page and feed walk its index newest first, and an author with no row here (no
// published post) has no public page. Nothing is filled: no post has authors yet.
const SCHEMA = `
ALTER TABLE drafts ADD COLUMN authors TEXT NOT NULL DEFAULT '[]';
ALTER TABLE revisions ADD COLUMN authors TEXT NOT NULL DEFAULT '[]';
CREATE TABLE published_post_authors (
  author_id INTEGER NOT NULL REFERENCES authors(id) ON DELETE CASCADE,
  page_id INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
  first_published_at TEXT NOT NULL,
  PRIMARY KEY (author_id, page_id)
);
CREATE INDEX published_post_authors_newest
  ON published_post_authors(author_id, first_published_at, page_id);
CREATE INDEX published_post_authors_page ON published_post_authors(page_id);
`;

export const migration018: Migration = {
  id: 18,
  name: 'bylines',
  sqlite: SCHEMA,
  postgres: SCHEMA,
};
