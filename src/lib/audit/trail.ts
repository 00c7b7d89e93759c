// Owns reading and pruning the audit trail (docs/decisions/0041): one page of entries, newest
// first, by keyset (the id of the last entry shown: a page deep in years of entries costs what
// the first does), filtered by who, what, page and since — each filter a (column, id) index of
// migration 025, so every read is a bounded range, never a scan of the table — and the
// retention that deletes entries past AUDIT_RETENTION_DAYS in bounded batches.
import 'server-only';
import { getDatabase, type Query, sqlTemplate } from '../data/db';
import type { AuditAction } from './actions';

export type AuditEntry = {
  id: number;
  at: string;
  action: AuditAction;
  actorId: number | null;
  actorEmail: string | null;
  pageId: number | null;
  slug: string | null;
  address: string;
  detail: Record<string, unknown>;
};

export type AuditFilters = {
  /** The person who did it, by email (any case). */
  who?: string;
  what?: AuditAction;
  /** A page by its address: the page there now (whatever it was called then), else the slug. */
  page?: string;
  /** Entries at or after this instant (ISO). */
  since?: string;
};

/** Entries a screen's page shows; the CLI reads in batches of the same size. */
export const AUDIT_PAGE_SIZE = 50;

type EntryRow = {
  id: number | string;
  at: string;
  action: AuditAction;
  actor_id: number | string | null;
  actor_email: string | null;
  page_id: number | string | null;
  slug: string | null;
  address: string;
  detail: string;
};

function toEntry(row: EntryRow): AuditEntry {
  let detail: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(row.detail);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      detail = parsed as Record<string, unknown>;
  } catch {}
  return {
    id: Number(row.id),
    at: row.at,
    action: row.action,
    actorId: row.actor_id === null ? null : Number(row.actor_id),
    actorEmail: row.actor_email,
    pageId: row.page_id === null ? null : Number(row.page_id),
    slug: row.slug,
    address: row.address,
    detail,
  };
}

const SELECT =
  'SELECT id, at, action, actor_id, actor_email, page_id, slug, address, detail FROM audit_entries WHERE 1 = 1';

/** Statement texts by the filters they use: at most 2^6 shapes, each made once. */
const statements = new Map<string, TemplateStringsArray>();

function statement(conditions: readonly string[], order: 'ASC' | 'DESC'): TemplateStringsArray {
  const key = `${conditions.join('|')}|${order}`;
  let made = statements.get(key);
  if (!made) {
    // `SELECT … WHERE 1 = 1 AND a = ${…} AND b = ${…} ORDER BY id … LIMIT ${…}`
    const parts = [SELECT];
    for (const condition of conditions) {
      parts[parts.length - 1] += ` AND ${condition} `;
      parts.push('');
    }
    parts[parts.length - 1] += ` ORDER BY id ${order} LIMIT `;
    parts.push('');
    made = sqlTemplate(parts);
    statements.set(key, made);
  }
  return made;
}

/**
 * The lowest id at or after `since`, by the (at, id) index: one row read. Ids follow time
 * (each entry is written with its commit's clock), so "since" becomes an id range the other
 * filters' indexes can use.
 */
async function firstIdSince(q: Query, since: string): Promise<number | null> {
  const [row] = await q<{ id: number | string }>`
    SELECT id FROM audit_entries WHERE at >= ${since} ORDER BY at, id LIMIT 1`;
  return row ? Number(row.id) : null;
}

/** The page a filter names: its id when a page has that address now, else null. */
async function pageIdAt(q: Query, slug: string): Promise<number | null> {
  const [row] = await q<{ id: number | string }>`SELECT id FROM pages WHERE slug = ${slug}`;
  return row ? Number(row.id) : null;
}

/**
 * One page of entries: newest first before `before` (an entry id; left out: the newest), or
 * oldest first after `after` (the CLI's order). `next` is the id to continue from, null at
 * the end.
 */
export async function listAudit(
  q: Query,
  filters: AuditFilters,
  {
    before,
    after,
    limit = AUDIT_PAGE_SIZE,
  }: { before?: number; after?: number; limit?: number } = {},
): Promise<{ entries: AuditEntry[]; next: number | null }> {
  const conditions: string[] = [];
  const values: unknown[] = [];
  const where = (condition: string, value: unknown) => {
    conditions.push(condition);
    values.push(value);
  };
  if (filters.since !== undefined) {
    const from = await firstIdSince(q, filters.since);
    if (from === null) return { entries: [], next: null };
    where('id >=', from);
  }
  if (filters.who !== undefined) where('actor_email =', filters.who.trim().toLowerCase());
  if (filters.what !== undefined) where('action =', filters.what);
  if (filters.page !== undefined) {
    const pageId = await pageIdAt(q, filters.page);
    if (pageId === null) where('slug =', filters.page);
    else where('page_id =', pageId);
  }
  const ascending = after !== undefined;
  if (ascending) where('id >', after);
  else if (before !== undefined) where('id <', before);
  const rows = await q<EntryRow>(
    statement(conditions, ascending ? 'ASC' : 'DESC'),
    ...values,
    limit + 1,
  );
  const entries = rows.slice(0, limit).map(toEntry);
  const last = entries.at(-1);
  return { entries, next: rows.length > limit && last ? last.id : null };
}

/** Entries deleted per statement: each a short write, so other writes never wait long. */
export const PRUNE_BATCH = 250;
/** Batches per round: a round ends in bounded time even on a site switching retention on. */
export const PRUNE_BATCHES_PER_ROUND = 4;

/**
 * Deletes entries older than `retentionDays` before `now`, a bounded batch at a time (oldest
 * first, by the (at, id) index), at most PRUNE_BATCHES_PER_ROUND batches; how many went. What
 * is left goes at the next round.
 */
export async function pruneAudit(
  q: Query,
  {
    retentionDays,
    now = new Date(),
    batch = PRUNE_BATCH,
    batches = PRUNE_BATCHES_PER_ROUND,
  }: { retentionDays: number; now?: Date; batch?: number; batches?: number },
): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000).toISOString();
  let deleted = 0;
  for (let round = 0; round < batches; round += 1) {
    const gone = await q`
      DELETE FROM audit_entries WHERE id IN (
        SELECT id FROM audit_entries WHERE at < ${cutoff} ORDER BY at, id LIMIT ${batch})
      RETURNING id`;
    deleted += gone.length;
    if (gone.length < batch) break;
  }
  return deleted;
}

/** The trail of this process's database, for the screen (which never opens the database). */
export function auditTrail() {
  return {
    page: async (filters: AuditFilters, options: { before?: number; limit?: number } = {}) =>
      listAudit((await getDatabase()).query, filters, options),
  };
}
