import type { Migration } from './index';

// Share links answer to their maker (issue 24): removing an editor or resetting their
// password revokes the open links they made, and each maker has a cap on open links, both
// found by `created_by` (an editor's email, or 'cli'). The partial index keeps that lookup to
// the open links however many revoked ones the table keeps. Links made by editors removed
// before this migration were left open; they are revoked here, once, for good — an editor
// added again with the same email gets none of them back.
export const migration008: Migration = {
  id: 8,
  name: 'share-link-makers',
  sqlite: `
CREATE INDEX preview_links_open_by_maker ON preview_links(created_by) WHERE revoked_at IS NULL;
UPDATE preview_links SET revoked_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
WHERE revoked_at IS NULL AND created_by IS NOT NULL AND created_by <> 'cli'
  AND created_by NOT IN (SELECT email FROM editors);
`,
  postgres: `
CREATE INDEX preview_links_open_by_maker ON preview_links(created_by) WHERE revoked_at IS NULL;
UPDATE preview_links
SET revoked_at = to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
WHERE revoked_at IS NULL AND created_by IS NOT NULL AND created_by <> 'cli'
  AND created_by NOT IN (SELECT email FROM editors);
`,
};
