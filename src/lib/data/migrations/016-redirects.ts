import type { Migration } from './index';

// Redirects an editor made (issue 27): from an address on this site (`/old-post`, or a path
// an earlier site had, `/2019/05/old-post`) to a page of this one or to another site, 301 or
// 302. `from_path` is stored as redirects.ts normalises it (lower case, no trailing slash), so
// a request is one primary-key lookup. A page at the address always wins (a redirect never
// shadows a page); the renames' own redirects stay in slug_history, listed beside these.
export const migration016: Migration = {
  id: 16,
  name: 'redirects',
  sqlite: `
CREATE TABLE redirects (
  from_path TEXT PRIMARY KEY,
  target TEXT NOT NULL,
  status INTEGER NOT NULL CHECK (status IN (301, 302)),
  created_at TEXT NOT NULL,
  created_by TEXT
);
CREATE INDEX redirects_by_target ON redirects(target);
`,
  postgres: `
CREATE TABLE redirects (
  from_path TEXT PRIMARY KEY,
  target TEXT NOT NULL,
  status INTEGER NOT NULL CHECK (status IN (301, 302)),
  created_at TEXT NOT NULL,
  created_by TEXT
);
CREATE INDEX redirects_by_target ON redirects(target);
`,
};
