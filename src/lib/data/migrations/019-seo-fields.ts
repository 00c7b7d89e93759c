import type { Migration } from './index';

// Search and sharing fields (issue 27): a page's meta title and description, social image,
// canonical override and "hide from search engines", drafted and published with its text. One
// JSON text on drafts and revisions (decision 0036): the five travel together everywhere a
// draft is copied, compared or published, and no query filters by them in SQL. '{}' is "none
// chosen", what every existing page has.
const SCHEMA = `
ALTER TABLE drafts ADD COLUMN seo TEXT NOT NULL DEFAULT '{}';
ALTER TABLE revisions ADD COLUMN seo TEXT NOT NULL DEFAULT '{}';
`;

export const migration019: Migration = {
  id: 19,
  name: 'seo-fields',
  sqlite: SCHEMA,
  postgres: SCHEMA,
};
