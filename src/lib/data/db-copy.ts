// Owns copying a whole site from one database to another — SQLite to PostgreSQL and back
// (`bun run folio db copy`): every table in an order the foreign keys accept, ids kept, in one
// transaction on the target, and the counts of both sides to compare. Rows are read and written
// a batch at a time in key order (keyset), so memory does not grow with the site (issue 25).
import 'server-only';
import { type Database, type Query, sqlTemplate } from './db';
import { isDatabaseBusy, isDatabaseUnavailable } from './db-errors';

/** Rows per batch read from the source: what a copy holds in memory at once (issue 25). */
export const COPY_BATCH = 500;

type CopiedTable = {
  name: string;
  /** What names a row in a refusal. */
  key: readonly string[];
  /** The table's primary key: the order, and the keyset, rows are read in. */
  order: readonly string[];
  columns: readonly string[];
  /** Rows per batch when not COPY_BATCH. */
  batch?: number;
};

/** Copied tables, parents first, with the columns copied. */
const TABLES: readonly CopiedTable[] = [
  // published_revision_id points into revisions, copied next: set after them.
  {
    name: 'pages',
    key: ['id', 'slug'],
    order: ['id'],
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
    order: ['id'],
    columns: [
      'id',
      'page_id',
      'title',
      'summary',
      'body',
      'body_html',
      // The images the HTML uses: the target's triggers rebuild media_uses from them.
      'media_refs',
      // What visitors' search indexes (migration 15): the target's triggers index it.
      'search_text',
      'published_at',
      'published_by',
      'published_via',
      'kind',
      'topics',
      'authors',
      'seo',
    ],
  },
  {
    name: 'drafts',
    key: ['page_id'],
    order: ['page_id'],
    columns: [
      'page_id',
      'title',
      'summary',
      'body',
      'body_html',
      'media_refs',
      'updated_at',
      'updated_by',
      'kind',
      'topics',
      'authors',
      'seo',
    ],
  },
  // The history of every save (migration 12): hidden rows too, the merge bases of open tabs.
  {
    name: 'checkpoints',
    key: ['id', 'page_id'],
    order: ['id'],
    columns: [
      'id',
      'page_id',
      'version',
      'kind',
      'title',
      'summary',
      'body',
      'saved_at',
      'first_saved_at',
      'saved_by',
      'saves',
      'hidden',
    ],
  },
  // Topics and what visitors' listings read (migration 14): the listings are the write
  // model's, not triggers', so they are copied as they are.
  {
    name: 'topics',
    key: ['id', 'slug'],
    order: ['id'],
    columns: ['id', 'name', 'slug', 'intro', 'intro_html', 'created_at', 'updated_at'],
  },
  {
    name: 'topic_slug_history',
    key: ['old_slug', 'topic_id'],
    order: ['old_slug'],
    columns: ['old_slug', 'topic_id', 'renamed_at'],
  },
  {
    name: 'published_posts',
    key: ['page_id'],
    order: ['page_id'],
    columns: ['page_id', 'first_published_at'],
  },
  {
    name: 'listing_pages',
    key: ['page_id'],
    order: ['page_id'],
    columns: ['page_id'],
  },
  {
    name: 'published_post_topics',
    key: ['topic_id', 'page_id'],
    order: ['topic_id', 'page_id'],
    columns: ['topic_id', 'page_id', 'first_published_at'],
  },
  {
    name: 'slug_history',
    key: ['old_slug', 'page_id'],
    order: ['old_slug'],
    columns: ['old_slug', 'page_id', 'renamed_at'],
  },
  {
    name: 'redirects',
    key: ['from_path'],
    order: ['from_path'],
    columns: ['from_path', 'target', 'status', 'created_at', 'created_by'],
  },
  {
    name: 'editors',
    key: ['id'],
    order: ['id'],
    columns: ['id', 'email', 'password_hash', 'created_at'],
  },
  // After editors: an author names the editor whose profile it is.
  {
    name: 'authors',
    key: ['id'],
    order: ['id'],
    columns: [
      'id',
      'slug',
      'name',
      'bio',
      'photo',
      'links',
      'editor_id',
      'created_at',
      'updated_at',
    ],
  },
  // An author's old addresses (migration 29), after the authors they name.
  {
    name: 'author_slug_history',
    key: ['old_slug', 'author_id'],
    order: ['old_slug'],
    columns: ['old_slug', 'author_id', 'renamed_at'],
  },
  // After authors and pages: which published posts name which author (migration 18).
  {
    name: 'published_post_authors',
    key: ['author_id', 'page_id'],
    order: ['author_id', 'page_id'],
    columns: ['author_id', 'page_id', 'first_published_at'],
  },
  // A session is named by its editor and start, never by its (secret's) hash.
  {
    name: 'editor_sessions',
    key: ['editor_id', 'created_at'],
    order: ['id_hash'],
    columns: ['id_hash', 'editor_id', 'created_at', 'expires_at'],
  },
  {
    name: 'preview_links',
    key: ['id', 'page_id'],
    order: ['id'],
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
    order: ['id'],
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
    order: ['media_id', 'name'],
    // Image bytes: a few variants per batch keep the batch small whatever the images weigh.
    batch: 16,
    columns: ['media_id', 'name', 'content_type', 'width', 'height', 'data'],
  },
  // The outbox comes along whole, dispatched or not: an undispatched event is delivered by
  // the target's dispatcher (at least once, as anywhere).
  {
    name: 'events',
    key: ['id', 'type'],
    order: ['id'],
    columns: ['id', 'type', 'page_id', 'slug', 'payload', 'editor', 'created_at', 'dispatched_at'],
  },
  // The audit trail (decision 0041) comes along whole: a site moved keeps its record.
  {
    name: 'audit_entries',
    key: ['id', 'action'],
    order: ['id'],
    columns: [
      'id',
      'at',
      'action',
      'actor_id',
      'actor_email',
      'page_id',
      'slug',
      'address',
      'detail',
    ],
  },
];

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

const SETTINGS_TABLE = {
  name: 'settings',
  key: ['key'],
  order: ['key'],
  columns: ['key', 'value'],
} as const;

/** Tables whose id the target's own sequence must continue after (PostgreSQL identity). */
const IDENTITY_TABLES = [
  'revisions',
  'checkpoints',
  'editors',
  'preview_links',
  'media',
  'events',
  'audit_entries',
  'authors',
  'topics',
] as const;

export type CopyCounts = Record<string, { source: number; target: number }>;

async function countRows(q: Query, table: string): Promise<number> {
  const [row] = await q<{ n: number | string }>(
    sqlTemplate([`SELECT COUNT(*) AS n FROM ${table}`]),
  );
  return Number(row?.n ?? 0);
}

/**
 * The table's rows a batch at a time in primary-key order: each batch starts after the last
 * key of the one before (keyset), so each costs the same however far into the table it is.
 */
async function* rowBatches(
  db: Database,
  table: CopiedTable,
  batchSize = table.batch ?? COPY_BATCH,
): AsyncGenerator<Record<string, unknown>[]> {
  const select = `SELECT ${table.columns.join(', ')} FROM ${table.name}`;
  const order = ` ORDER BY ${table.order.join(', ')} LIMIT `;
  const after = `(${table.order.join(', ')}) > (`;
  let last: Record<string, unknown> | null = null;
  for (;;) {
    const rows: Record<string, unknown>[] =
      last === null
        ? await db.query<Record<string, unknown>>(sqlTemplate([select + order, '']), batchSize)
        : await db.query<Record<string, unknown>>(
            sqlTemplate([
              `${select} WHERE ${after}`,
              ...table.order.slice(1).map(() => ', '),
              `)${order}`,
              '',
            ]),
            ...table.order.map((column) => (last as Record<string, unknown>)[column]),
            batchSize,
          );
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < batchSize) return;
    last = rows[rows.length - 1] ?? null;
  }
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
export async function copySite(
  source: Database,
  target: Database,
  {
    onProgress,
    batchSize,
  }: {
    /** After each batch: the table, and its rows copied so far. */
    onProgress?: (table: string, copied: number) => void;
    /** Rows per batch for every table (tests); else COPY_BATCH, fewer for image bytes. */
    batchSize?: number;
  } = {},
): Promise<CopyCounts> {
  const problem = await targetProblem(target);
  if (problem) throw new Error(problem);
  const settings = await source.query<{
    key: string;
    value: string;
  }>`SELECT key, value FROM settings`;

  // One transaction on the target (a new, empty database nobody serves yet): a copy that
  // fails leaves nothing behind. Only the batch in hand is held in memory.
  await target.transaction(async (q) => {
    for (const table of TABLES) {
      const insert = sqlTemplate([
        `INSERT INTO ${table.name} (${table.columns.join(', ')}) VALUES (`,
        ...table.columns.slice(1).map(() => ', '),
        ')',
      ]);
      let copied = 0;
      for await (const rows of rowBatches(source, table, batchSize)) {
        for (const row of rows) await insertRow(target, q, insert, table, row);
        copied += rows.length;
        onProgress?.(table.name, copied);
      }
    }
    const pointers = {
      name: 'pages',
      key: ['id'],
      order: ['id'],
      columns: ['id', 'published_revision_id'],
    } as const;
    for await (const rows of rowBatches(source, pointers, batchSize))
      for (const pointer of rows)
        if (pointer.published_revision_id !== null)
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
