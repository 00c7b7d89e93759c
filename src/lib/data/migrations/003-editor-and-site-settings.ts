import type { Migration } from './index';

// Who changed a page last and how (saved, published, unpublished, discarded, renamed,
// restored): the dashboard shows it, and a stale save says what happened meanwhile. The site's
// own settings (title, tagline, footer, header navigation) live in `settings` with defaults.
export const migration003: Migration = {
  id: 3,
  name: 'editor-and-site-settings',
  sqlite: `
ALTER TABLE pages ADD COLUMN updated_by TEXT;
ALTER TABLE pages ADD COLUMN last_change TEXT NOT NULL DEFAULT 'saved';
INSERT INTO settings (key, value) VALUES ('site_title', 'Folio') ON CONFLICT (key) DO NOTHING;
INSERT INTO settings (key, value) VALUES ('site_tagline', 'Pages worth reading.') ON CONFLICT (key) DO NOTHING;
INSERT INTO settings (key, value) VALUES ('site_footer', 'Published with Folio.') ON CONFLICT (key) DO NOTHING;
`,
  postgres: `
ALTER TABLE pages ADD COLUMN updated_by TEXT;
ALTER TABLE pages ADD COLUMN last_change TEXT NOT NULL DEFAULT 'saved';
INSERT INTO settings (key, value) VALUES ('site_title', 'Folio') ON CONFLICT (key) DO NOTHING;
INSERT INTO settings (key, value) VALUES ('site_tagline', 'Pages worth reading.') ON CONFLICT (key) DO NOTHING;
INSERT INTO settings (key, value) VALUES ('site_footer', 'Published with Folio.') ON CONFLICT (key) DO NOTHING;
`,
};
