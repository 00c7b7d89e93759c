// Owns what the database's errors mean to the rest of Folio. No imports: the request-error
// classifier that uses it is bundled for the browser too.

/**
 * Still locked by another writer after the wait allowed (SQLite's busy timeout, PostgreSQL's
 * lock timeout: SQLSTATE 55P03); nothing was written.
 */
export function isDatabaseBusy(error: unknown): boolean {
  const { code, errno } = (error ?? {}) as { code?: unknown; errno?: unknown };
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || errno === '55P03';
}

/**
 * The code of the error db.ts throws when PostgreSQL took a statement and gave no answer in
 * time (a server that is up but stopped): out of reach as far as the request is concerned.
 */
export const DATABASE_TIMEOUT_CODE = 'ERR_FOLIO_DATABASE_NOT_ANSWERING';

// Bun's PostgreSQL client codes for a connection that could not be made or was lost.
const CONNECTION_CODES = new Set([
  'ERR_POSTGRES_CONNECTION_REFUSED',
  'ERR_POSTGRES_CONNECTION_CLOSED',
  'ERR_POSTGRES_CONNECTION_TIMEOUT',
  'ERR_POSTGRES_IDLE_TIMEOUT',
  'ERR_POSTGRES_LIFETIME_TIMEOUT',
  'ERR_POSTGRES_TLS_NOT_AVAILABLE',
  'ERR_POSTGRES_TLS_UPGRADE_FAILED',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  DATABASE_TIMEOUT_CODE,
]);

/**
 * PostgreSQL is out of reach: the connection was refused, dropped or timed out, the server
 * did not answer in time, or it is shutting down or starting (SQLSTATE class 08,
 * 57P01-57P03). Nothing was written.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const { code, errno } = (error ?? {}) as { code?: unknown; errno?: unknown };
  if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
  const state = typeof errno === 'string' ? errno : '';
  return state.startsWith('08') || state === '57P01' || state === '57P02' || state === '57P03';
}

/**
 * The disk is full: SQLite's SQLITE_FULL (also what `PRAGMA max_page_count` gives when the
 * file reaches it), PostgreSQL's disk_full (SQLSTATE 53100). Nothing was written, and it is
 * no bug: an expected fault like "busy", answered "cannot save right now" with the text kept.
 */
export function isDatabaseFull(error: unknown): boolean {
  const { code, errno } = (error ?? {}) as { code?: unknown; errno?: unknown };
  return code === 'SQLITE_FULL' || errno === '53100';
}
