import type { Migration } from './index';

// A page may be scheduled to publish at a time (UTC, ISO 8601 as `toISOString` writes it, so
// text order is time order), on behalf of the editor who scheduled it. Whichever process
// clears `publish_at` in its transaction publishes: the claim that makes it happen once with
// several instances and the CLI. A revision says whether a schedule published it.
export const migration004: Migration = {
  id: 4,
  name: 'scheduled-publishing',
  sqlite: `
ALTER TABLE pages ADD COLUMN publish_at TEXT;
ALTER TABLE pages ADD COLUMN scheduled_by TEXT;
ALTER TABLE revisions ADD COLUMN published_via TEXT;
CREATE INDEX pages_publish_at ON pages(publish_at) WHERE publish_at IS NOT NULL;
`,
  postgres: `
ALTER TABLE pages ADD COLUMN publish_at TEXT;
ALTER TABLE pages ADD COLUMN scheduled_by TEXT;
ALTER TABLE revisions ADD COLUMN published_via TEXT;
CREATE INDEX pages_publish_at ON pages(publish_at) WHERE publish_at IS NOT NULL;
`,
};
