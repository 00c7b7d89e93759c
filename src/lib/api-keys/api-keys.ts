// Owns API keys for the content API (issue 29, docs/decisions/0047): made and revoked by
// Administrators (the screen) or the operator (the CLI), each shown once when it is made. Only
// a SHA-256 of the key is stored, with its first characters to recognise it by: a copy of the
// database lets nobody use a key. A key is 32 random bytes, so a fast hash is enough — there is
// nothing to guess that a slow one would protect (a slow hash is for passwords people choose).
import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { type AuditActor, recordAudit } from '../audit/audit';
import { type Database, getDatabase } from '../data/db';
import { KEY_NAME_MAX } from './limits';

export { KEY_NAME_MAX };

export const KEY_PREFIX = 'folio_';
/** `folio_` and 32 random bytes in base64url (43 characters). */
export const KEY_SHAPE = /^folio_[A-Za-z0-9_-]{43}$/;
/** How much of a key is kept and shown to recognise it: `folio_` and 8 characters. */
const SHOWN_LENGTH = KEY_PREFIX.length + 8;
/** How many keys may be live at once: a site has a few clients, not thousands. */
export const MAX_LIVE_KEYS = 100;

export type ApiKey = {
  id: number;
  name: string;
  /** The key's first characters, `folio_` and 8 more. */
  prefix: string;
  createdBy: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
};

export class ApiKeyError extends Error {
  constructor(
    message: string,
    readonly code: 'invalid' | 'cap' | 'not-found' | 'ambiguous',
  ) {
    super(message);
    this.name = 'ApiKeyError';
  }
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

type Row = {
  id: number | string;
  name: string;
  prefix: string;
  created_by: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
};

const keyOf = (row: Row): ApiKey => ({
  id: Number(row.id),
  name: row.name,
  prefix: row.prefix,
  createdBy: row.created_by,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  revokedAt: row.revoked_at,
});

/** A key's name as typed: trimmed, one line, not empty, not too long. */
export function checkKeyName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '')
    throw new ApiKeyError('Give the key a name (who or what uses it).', 'invalid');
  if (trimmed.length > KEY_NAME_MAX)
    throw new ApiKeyError(`A key's name is at most ${KEY_NAME_MAX} characters.`, 'invalid');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(trimmed))
    throw new ApiKeyError("A key's name is one line of text.", 'invalid');
  return trimmed;
}

/**
 * Makes a key: the row (hash, prefix, name, maker) and its audit entry in one transaction.
 * Returns the key itself: the only time it exists outside the client's hands.
 */
export async function createApiKey(
  db: Database,
  { name, actor }: { name: string; actor: AuditActor | null | undefined },
): Promise<{ key: string; apiKey: ApiKey }> {
  const checked = checkKeyName(name);
  const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const createdAt = new Date().toISOString();
  const row = await db.transaction(async (q) => {
    const [live] = await q<{ n: number | string }>`
      SELECT COUNT(*) AS n FROM api_keys WHERE revoked_at IS NULL`;
    if (Number(live?.n ?? 0) >= MAX_LIVE_KEYS)
      throw new ApiKeyError(
        `There are already ${MAX_LIVE_KEYS} keys in use: revoke one first.`,
        'cap',
      );
    const [made] = await q<Row>`
      INSERT INTO api_keys (name, prefix, key_hash, created_by, created_at)
      VALUES (${checked}, ${key.slice(0, SHOWN_LENGTH)}, ${hashApiKey(key)},
              ${actor === null ? 'cli' : (actor?.email ?? null)}, ${createdAt})
      RETURNING id, name, prefix, created_by, created_at, last_used_at, revoked_at`;
    if (!made) throw new Error('the new API key was not returned');
    await recordAudit(q, {
      action: 'api-key.created',
      actor,
      detail: { key: Number(made.id), name: checked, prefix: made.prefix },
    });
    return made;
  });
  const apiKey = keyOf(row);
  // The maker's email is the audit entry's actor when the session knew it (the screen).
  return { key, apiKey };
}

/** Every key, live first, newest first. */
export async function listApiKeys(db: Database): Promise<ApiKey[]> {
  const rows = await db.query<Row>`
    SELECT id, name, prefix, created_by, created_at, last_used_at, revoked_at FROM api_keys
    ORDER BY CASE WHEN revoked_at IS NULL THEN 0 ELSE 1 END, id DESC`;
  return rows.map(keyOf);
}

/**
 * Revokes the key with this id, or whose prefix this is (`folio_` and at least 4 more
 * characters, as the list shows it). One already revoked is `false`; none, or a prefix two
 * live keys share, is refused in words.
 */
export async function revokeApiKey(
  db: Database,
  which: number | string,
  actor: AuditActor | null | undefined,
): Promise<{ apiKey: ApiKey; revoked: boolean }> {
  return db.transaction(async (q) => {
    let rows: Row[];
    if (typeof which === 'number') {
      rows = await q<Row>`
        SELECT id, name, prefix, created_by, created_at, last_used_at, revoked_at
        FROM api_keys WHERE id = ${which}`;
    } else {
      if (!/^folio_[A-Za-z0-9_-]{4,8}$/.test(which))
        throw new ApiKeyError(
          'Name a key by its id or its prefix as the list shows it (folio_ and 8 characters).',
          'invalid',
        );
      // The prefix column holds 8 characters after folio_; a shorter one is its beginning.
      rows = (
        await q<Row>`
          SELECT id, name, prefix, created_by, created_at, last_used_at, revoked_at
          FROM api_keys ORDER BY id`
      ).filter((row) => row.prefix.startsWith(which));
      const live = rows.filter((row) => row.revoked_at === null);
      if (live.length > 1)
        throw new ApiKeyError(
          `${live.length} keys begin with ${which}: name one by its id (${live.map((row) => row.id).join(', ')}).`,
          'ambiguous',
        );
      if (live.length === 1) rows = live;
    }
    const row = rows[0];
    if (!row) throw new ApiKeyError(`There is no API key ${which}.`, 'not-found');
    if (row.revoked_at !== null) return { apiKey: keyOf(row), revoked: false };
    const revokedAt = new Date().toISOString();
    await q`UPDATE api_keys SET revoked_at = ${revokedAt} WHERE id = ${row.id}`;
    await recordAudit(q, {
      action: 'api-key.revoked',
      actor,
      detail: { key: Number(row.id), name: row.name, prefix: row.prefix },
    });
    return { apiKey: keyOf({ ...row, revoked_at: revokedAt }), revoked: true };
  });
}

/** The key a request presents, by its hash: its id, and whether it still works. */
export async function findApiKey(
  db: Database,
  key: string,
): Promise<{ id: number; revoked: boolean } | null> {
  const [row] = await db.query<{ id: number | string; revoked_at: string | null }>`
    SELECT id, revoked_at FROM api_keys WHERE key_hash = ${hashApiKey(key)}`;
  return row ? { id: Number(row.id), revoked: row.revoked_at !== null } : null;
}

/**
 * Marks keys as used now, for the list's "last used" (the limiter's flush calls it, at most
 * once a minute per key and instance): never a request's own write.
 */
export async function markApiKeysUsed(db: Database, ids: number[], at: string): Promise<void> {
  for (const id of ids)
    await db.query`
      UPDATE api_keys SET last_used_at = ${at}
      WHERE id = ${id} AND (last_used_at IS NULL OR last_used_at < ${at})`;
}

/** The screen's store: the server's database. */
export async function apiKeysDatabase(): Promise<Database> {
  return getDatabase();
}
