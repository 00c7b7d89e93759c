import type { Migration } from './index';

// "Confirm it is you" (issue 28, docs/decisions/0042): when the person of a session last typed
// their password in it — at sign-in, or on the security screen — so that changing how they sign
// in (a passkey, the authenticator app, recovery codes) asks for it again after ten minutes. On
// the session's row, never in a cookie: the browser cannot move it forward. NULL (every session
// open before this migration) is "not confirmed": the security screen asks first.
const SCHEMA = `
ALTER TABLE editor_sessions ADD COLUMN confirmed_at TEXT;
`;

export const migration027: Migration = {
  id: 27,
  name: 'session-confirmations',
  sqlite: SCHEMA,
  postgres: SCHEMA,
};
