// Owns copying a whole site from one database to another — SQLite to PostgreSQL and back
// (`bun run folio db copy`): every table in an order the foreign keys accept, ids kept, in one
// transaction on the target, and the counts of both sides to compare.
import 'server-only';
import { type Database, type Query, sqlTemplate } from './db';

/** Copied tables, parents first, with the columns copied. */
const TABLES = [
  // published_revision_id points into revisions, copied next: set after them.
  {
    name: 'pages',
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
    columns: ['page_id', 'title', 'summary', 'body', 'body_html', 'updated_at', 'updated_by'],
  },
  { name: 'slug_history', columns: ['old_slug', 'page_id', 'renamed_at'] },
  { name: 'editors', columns: ['id', 'email', 'password_hash', 'created_at'] },
  { name: 'editor_sessions', columns: ['id_hash', 'editor_id', 'created_at', 'expires_at'] },
  {
    name: 'preview_links',
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
    columns: ['media_id', 'name', 'content_type', 'width', 'height', 'data'],
  },
  // The outbox comes along whole, dispatched or not: an undispatched event is delivered by
  // the target's dispatcher (at least once, as anywhere).
  {
    name: 'events',
    columns: ['id', 'type', 'page_id', 'slug', 'payload', 'editor', 'created_at', 'dispatched_at'],
  },
] as const;

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
      for (const row of rows.get(table.name) ?? [])
        await q(insert, ...table.columns.map((column) => row[column] ?? null));
    }
    for (const pointer of pagePointers)
      await q`UPDATE pages SET published_revision_id = ${Number(pointer.published_revision_id)}
              WHERE id = ${Number(pointer.id)}`;
    const [targetVersion] = await q<{ value: string }>`
      SELECT value FROM settings WHERE key = 'content_version'`;
    for (const setting of settings) {
      let value = setting.value;
      if (setting.key === 'content_version')
        value = String(Math.max(Number(value), Number(targetVersion?.value ?? 0)) + 1);
      await q`INSERT INTO settings (key, value) VALUES (${setting.key}, ${value})
              ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
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
