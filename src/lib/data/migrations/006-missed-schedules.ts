import type { Migration } from './index';

// A schedule that came due but could not publish (its draft had come to name an image the
// library no longer has) is cleared, so it is not tried every minute; what it was and why
// it failed are kept here until an editor publishes, schedules again, discards the draft or
// dismisses the notice: the banner and the dashboard say it, not only a log line.
export const migration006: Migration = {
  id: 6,
  name: 'missed-schedules',
  sqlite: `
ALTER TABLE pages ADD COLUMN missed_publish_at TEXT;
ALTER TABLE pages ADD COLUMN missed_scheduled_by TEXT;
ALTER TABLE pages ADD COLUMN missed_reason TEXT;
`,
  postgres: `
ALTER TABLE pages ADD COLUMN missed_publish_at TEXT;
ALTER TABLE pages ADD COLUMN missed_scheduled_by TEXT;
ALTER TABLE pages ADD COLUMN missed_reason TEXT;
`,
};
