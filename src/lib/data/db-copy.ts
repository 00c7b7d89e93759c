// Owns copying a whole site from one database to another — SQLite to PostgreSQL and back
// (`bun run folio db copy`): every table in an order the foreign keys accept, ids kept, in one
// transaction on the target, and the counts of both sides to compare.
import 'server-only';
import { type Database, type Query, sqlTemplate } from './db';
import { isDatabaseBusy, isDatabaseUnavailable } from './db-errors';

/** Copied tables, parents first, with the columns copied. */
const TABLES = [
  // published_revision_id points into revisions, copied next: set after them.
  {
    name: 'pages',
    key: ['id', 'slug'],
    columns: [
      'id',
      'slug',
      'created_at',
      'updated_at',
      'version',
      'updated_by',
      'last_change',
      'publish_at',
      'scheduled_by',
      'missed_publish_at',
      'missed_scheduled_by',
      'missed_reason',
    ],
  },
  {
    name: 'revisions',
    key: ['id', 'page_id'],
    columns: [
      'id',
      'page_id',
      'title',
      'summary',
      'body',
      'body_html',
      'published_at',
      'published_by',
      'published_via',
    ],
  },
  {
    name: 'drafts',
    key: ['page_id'],
    columns: ['page_id', 'title', 'summary', 'body', 'body_html', 'updated_at', 'updated_by'],
  },
  {
    name: 'slug_history',
    key: ['old_slug', 'page_id'],
    columns: ['old_slug', 'page_id', 'renamed_at'],
  },
  { name: 'editors', key: ['id'], columns: ['id', 'email', 'password_hash', 'created_at'] },
  // A session is named by its editor and start, never by its (secret's) hash.
  {
    name: 'editor_sessions',
    key: ['editor_id', 'created_at'],
    columns: ['id_hash', 'editor_id', 'created_at', 'expires_at'],
  },
  {
    name: 'preview_links',
    key: ['id', 'page_id'],
    columns: [
      'id',
      'page_id',
      'token_hash',
      'created_by',
      'created_at',
      'expires_at',
      'revoked_at',
    ],
  },
  {
    name: 'media',
    key: ['id', 'hash'],
    columns: [
      'id',
      'hash',
      'filename',
      'alt',
      'format',
      'width',
      'height',
      'bytes',
      'created_at',
      'created_by',
    ],
  },
  {
    name: 'media_variants',
    key: ['media_id', 'name'],
    columns: ['media_id', 'name', 'content_type', 'width', 'height', 'data'],
  },
  // The outbox comes along whole, dispatched or not: an undispatched event is delivered by
  // the target's dispatcher (at least once, as anywhere).
  {
    name: 'events',
    key: ['id', 'type'],
    columns: ['id', 'type', 'page_id', 'slug', 'payload', 'editor', 'created_at', 'dispatched_at'],
  },
] as const;

/**
 * A row the target would not take, named in one line (table, the row's key, the field when it
 * can be told): old data written before a rule existed — a NUL stored by SQLite, which
 * PostgreSQL refuses in text — must be found and mended, not guessed at from a stack trace.
 * Nothing is copied (the target's transaction rolls back).
 */
export class CopyRowError extends Error {
  override name = 'CopyRowError';
}

function rowName(table: string, key: readonly string[], row: Record<string, unknown>): string {
  const shown = (value: unknown) =>
    JSON.stringify(typeof value === 'bigint' ? Number(value) : value);
  return `${table} row ${key.map((column) => `${column}=${shown(row[column])}`).join(' ')}`;
}

/** The first field of `row` the target cannot store, and why, as far as it can be told. */
function fieldProblem(
  target: Database,
  columns: readonly string[],
  row: Record<string, unknown>,
): { field: string; why: string } | null {
  if (target.engine !== 'postgres') return null;
  for (const column of columns) {
    const value = row[column];
    if (typeof value === 'string' && value.includes('\u0000'))
      return {
        field: column,
        why: 'holds a NUL character (U+0000), which PostgreSQL cannot store in text',
      };
  }
  return null;
}

/** Inserts one row, or throws a CopyRowError naming it (and its field, when known). */
async function insertRow(
  target: Database,
  q: Query,
  insert: TemplateStringsArray,
  table: { name: string; key: readonly string[]; columns: readonly string[] },
  row: Record<string, unknown>,
): Promise<void> {
  const known = fieldProblem(target, table.columns, row);
  const name = rowName(table.name, table.key, row);
  if (known)
    throw new CopyRowError(
      `cannot copy ${name}: field ${known.field} ${known.why}; nothing was copied`,
    );
  try {
    await q(insert, ...table.columns.map((column) => row[column] ?? null));
  } catch (error) {
    // A database that is busy or out of reach is not this row's fault: said as such elsewhere.
    if (isDatabaseBusy(error) || isDatabaseUnavailable(error)) throw error;
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    throw new CopyRowError(`cannot copy ${name}: ${reason}; nothing was copied`);
  }
}

const SETTINGS_TABLE = { name: 'settings', key: ['key'], columns: ['key', 'value'] } as const;

/** Tables whose id the target's own sequence must continue after (PostgreSQL identity). */
const IDENTITY_TABLES = ['revisions', 'editors', 'preview_links', 'media', 'events'] as const;

export type CopyCounts = Record<string, { source: number; target: number }>;

async function countRows(q: Query, table: string): Promise<number> {
  const [row] = await q<{ n: number | string }>(
    sqlTemplate([`SELECT COUNT(*) AS n FROM ${table}`]),
  );
  return Number(row?.n ?? 0);
}

async function selectAll(db: Database, table: string, columns: readonly string[]) {
  return db.query<Record<string, unknown>>(
    sqlTemplate([`SELECT ${columns.join(', ')} FROM ${table} ORDER BY 1`]),
  );
}

/** Why the target cannot take a copy (it already holds a site), or null. */
export async function targetProblem(target: Database): Promise<string | null> {
  for (const table of ['pages', 'editors'] as const) {
    if ((await countRows(target.query, table)) > 0)
      return `it already has ${table}; copy into an empty database`;
  }
  return null;
}

/**
 * Copies every row of `source` into `target` (both migrated to the same schema, the target
 * empty). Settings come along, except that the target's content version moves past both
 * sides', so no instance's cache can take the copy for a version it has seen.
 */
export async function copySite(source: Database, target: Database): Promise<CopyCounts> {
  const problem = await targetProblem(target);
  if (problem) throw new Error(problem);
  const rows = new Map<string, Record<string, unknown>[]>();
  for (const table of TABLES)
    rows.set(table.name, await selectAll(source, table.name, table.columns));
  const pagePointers = await source.query<{ id: number; published_revision_id: number | null }>`
    SELECT id, published_revision_id FROM pages WHERE published_revision_id IS NOT NULL`;
  const settings = await source.query<{
    key: string;
    value: string;
  }>`SELECT key, value FROM settings`;

  await target.transaction(async (q) => {
    for (const table of TABLES) {
      const insert = sqlTemplate([
        `INSERT INTO ${table.name} (${table.columns.join(', ')}) VALUES (`,
        ...table.columns.slice(1).map(() => ', '),
        ')',
      ]);
      for (const row of rows.get(table.name) ?? []) await insertRow(target, q, insert, table, row);
    }
    for (const pointer of pagePointers)
      await q`UPDATE pages SET published_revision_id = ${Number(pointer.published_revision_id)}
              WHERE id = ${Number(pointer.id)}`;
    const [targetVersion] = await q<{ value: string }>`
      SELECT value FROM settings WHERE key = 'content_version'`;
    const upsertSetting = sqlTemplate([
      'INSERT INTO settings (key, value) VALUES (',
      ', ',
      ') ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    ]);
    for (const setting of settings) {
      let value = setting.value;
      if (setting.key === 'content_version')
        value = String(Math.max(Number(value), Number(targetVersion?.value ?? 0)) + 1);
      await insertRow(target, q, upsertSetting, SETTINGS_TABLE, { key: setting.key, value });
    }
    if (target.engine === 'postgres') {
      for (const table of IDENTITY_TABLES)
        await q.unsafe(
          `SELECT setval(pg_get_serial_sequence('${table}', 'id'), COALESCE((SELECT MAX(id) FROM ${table}), 0) + 1, false)`,
        );
    }
  });

  const counts: CopyCounts = {};
  for (const table of [...TABLES.map((t) => t.name), 'settings'])
    counts[table] = {
      source: await countRows(source.query, table),
      target: await countRows(target.query, table),
    };
  return counts;
}
