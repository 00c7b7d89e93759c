// Pages with at most one published revision and at most one newer draft; every publish is
// kept as a revision; renamed slugs are remembered so old links answer 301.
export const migration001 = {
  id: 1,
  name: 'initial',
  sql: `
CREATE TABLE pages (
  id INTEGER PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  published_revision_id INTEGER REFERENCES revisions(id),
  version INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE revisions (
  id INTEGER PRIMARY KEY,
  page_id INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  summary TEXT NOT NULL,
  body TEXT NOT NULL,
  body_html TEXT NOT NULL,
  published_at TEXT NOT NULL,
  published_by TEXT
);
CREATE INDEX revisions_page ON revisions(page_id);
CREATE TABLE drafts (
  page_id INTEGER PRIMARY KEY REFERENCES pages(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  summary TEXT NOT NULL,
  body TEXT NOT NULL,
  body_html TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  updated_by TEXT
);
CREATE TABLE slug_history (
  old_slug TEXT PRIMARY KEY,
  page_id INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
  renamed_at TEXT NOT NULL
);
CREATE TABLE editors (
  id INTEGER PRIMARY KEY,
  email TEXT NOT NULL UNIQUE COLLATE NOCASE,
  password_hash TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE editor_sessions (
  id_hash TEXT PRIMARY KEY,
  editor_id INTEGER NOT NULL REFERENCES editors(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE INDEX editor_sessions_editor ON editor_sessions(editor_id);
CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
INSERT INTO settings (key, value) VALUES ('content_version', '1');
`,
};
