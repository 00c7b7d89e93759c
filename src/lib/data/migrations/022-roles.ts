import type { Migration } from './index';

// Roles (issue 28): each person has one (src/lib/editors/permissions.ts orders them), and every
// page records who made it, which is what "their own page" means to an Author or a Contributor.
// An existing site keeps working as it did, where everyone could do everything: every current
// editor becomes an Administrator and the first of them (the lowest id: the one who set the site
// up) its Owner. Pages made before roles have no maker: nobody's own, so Editors and above act
// on them, as before. One Owner at most, held by the database itself (a partial unique index),
// so two Administrators' concurrent changes can never make two. `suspended_at`: a suspended
// person keeps their account and pages but cannot sign in or act.
const SCHEMA = `
ALTER TABLE editors ADD COLUMN role TEXT NOT NULL DEFAULT 'administrator'
  CHECK (role IN ('contributor', 'author', 'editor', 'administrator', 'owner'));
ALTER TABLE editors ADD COLUMN suspended_at TEXT;
UPDATE editors SET role = 'owner' WHERE id = (SELECT MIN(id) FROM editors);
CREATE UNIQUE INDEX editors_one_owner ON editors(role) WHERE role = 'owner';
ALTER TABLE pages ADD COLUMN created_by INTEGER REFERENCES editors(id) ON DELETE SET NULL;
CREATE INDEX pages_created_by ON pages(created_by);
`;

export const migration022: Migration = {
  id: 22,
  name: 'roles',
  sqlite: SCHEMA,
  postgres: SCHEMA,
};
