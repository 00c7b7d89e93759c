import type { Migration } from './index';

// Stronger sign-in (issue 28, docs/decisions/0042): passkeys (WebAuthn credentials, several per
// person), an authenticator app's TOTP secret with its one-time recovery codes (only their
// hashes), the WebAuthn challenges the server handed out (single-use, short-lived: a row is
// deleted by the answer that uses it), and a password sign-in waiting for its second step (only
// the hash of the cookie that names it). Everything belongs to a person and goes with them.
// `last_step`: the newest 30-second TOTP step used, so a code is refused once it, or a later
// one, has been used. The site's rule (who must have a second factor) is a `settings` row.
const SCHEMA = `
CREATE TABLE editor_passkeys (
  id TEXT PRIMARY KEY,
  editor_id INTEGER NOT NULL REFERENCES editors(id) ON DELETE CASCADE,
  public_key TEXT NOT NULL,
  counter BIGINT NOT NULL,
  transports TEXT NOT NULL,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  last_used_at TEXT
);
CREATE INDEX editor_passkeys_editor ON editor_passkeys(editor_id);
CREATE TABLE webauthn_challenges (
  challenge TEXT PRIMARY KEY,
  purpose TEXT NOT NULL CHECK (purpose IN ('register', 'sign-in')),
  editor_id INTEGER REFERENCES editors(id) ON DELETE CASCADE,
  expires_at BIGINT NOT NULL
);
CREATE TABLE editor_totp (
  editor_id INTEGER PRIMARY KEY REFERENCES editors(id) ON DELETE CASCADE,
  secret TEXT NOT NULL,
  confirmed_at TEXT,
  last_step BIGINT NOT NULL
);
CREATE TABLE editor_recovery_codes (
  editor_id INTEGER NOT NULL REFERENCES editors(id) ON DELETE CASCADE,
  code_hash TEXT NOT NULL,
  PRIMARY KEY (editor_id, code_hash)
);
CREATE TABLE pending_sign_ins (
  id_hash TEXT PRIMARY KEY,
  editor_id INTEGER NOT NULL REFERENCES editors(id) ON DELETE CASCADE,
  next TEXT NOT NULL,
  expires_at BIGINT NOT NULL,
  attempts INTEGER NOT NULL
);
`;

export const migration026: Migration = {
  id: 26,
  name: 'second-factors',
  sqlite: SCHEMA,
  postgres: SCHEMA,
};
