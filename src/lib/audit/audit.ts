// Owns writing the audit trail (issue 28, docs/decisions/0041): `recordAudit(q, entry)` adds one
// entry inside the caller's transaction, so an entry exists exactly when its change committed
// and a refused or rolled-back change leaves none. What the entry does not say is filled in
// from where it is written: the address from the request's context (the client address the
// front door worked out, TRUST_PROXY included), `scheduler` inside the scheduler's rounds, and
// `cli` anywhere else (the only other writers are CLI commands); the person from the request's
// session when the guard has looked it up already. The content-events outbox (events.ts) calls
// it for every event, so a publish's entry is written by the same line as its event.
import 'server-only';
import { AsyncLocalStorage } from 'node:async_hooks';
import { type Database, getDatabase, type Query } from '../data/db';
import { currentRequestContext } from '../http/request-context';
import { log } from '../observability/log';
import { processSingleton } from '../runtime/process-singleton';
import type { AuditAction } from './actions';

export { AUDIT_ACTIONS, type AuditAction, isAuditAction } from './actions';

/** Who did it: an editor's id and email (the email is kept when the person is removed). */
export type AuditActor = {
  /** Their id; left out: looked up by email in the same statement; null: none (a typed email). */
  id?: number | null;
  email: string;
};

export type NewAuditEntry = {
  action: AuditAction;
  /**
   * Who did it. Left out: the request's signed-in person, when already known (the guard looked
   * them up before the action ran); null: nobody (the CLI, the scheduler, a failed sign-in).
   */
  actor?: AuditActor | null;
  /** The page it is about: its id (no foreign key, a deleted page's entries stay) and slug. */
  pageId?: number | null;
  slug?: string | null;
  /** A few facts (role from and to, a revision id, a reason): small JSON, never a secret. */
  detail?: Record<string, unknown>;
  /** Where from; left out: the request's client address, `scheduler` or `cli`. */
  address?: string;
  /** When; left out: now. */
  at?: string;
};

/** The longest email, slug or address kept: what the columns show, never a typed essay. */
const MAX_TEXT = 254;
/** The longest detail kept; past it the entry says only that it was cut. */
export const MAX_DETAIL = 2000;

const clip = (text: string | null | undefined): string | null =>
  text === null || text === undefined ? null : text.slice(0, MAX_TEXT);

type Origin = 'scheduler';
const origin = processSingleton('audit-origin', () => new AsyncLocalStorage<Origin>());

/** Runs `work` as the scheduler: entries written inside say `scheduler` as their address. */
export function asScheduler<T>(work: () => T): T {
  return origin.run('scheduler', work);
}

/** Where the current code runs from, for an entry that does not say. */
export function currentAddress(): string {
  const context = currentRequestContext();
  // An IPv4 client on a dual-stack socket is `::ffff:a.b.c.d`: the trail shows the address.
  if (context) return context.clientAddress.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  return origin.getStore() ?? 'cli';
}

/**
 * The request's signed-in person if the session was already looked up and answered: never a
 * lookup of its own (inside a transaction on SQLite's one connection it would wait for itself).
 */
async function knownActor(): Promise<AuditActor | null> {
  const pending = currentRequestContext()?.session;
  if (!pending) return null;
  // A settled promise wins a race against one made after it; a pending lookup loses. (Racing
  // `pending.catch(…)` instead would always lose: that is a new promise, settled a tick later.)
  const settled = await Promise.race([pending, Promise.resolve(undefined)]).catch(() => null);
  return settled ? { id: settled.editor.id, email: settled.editor.email } : null;
}

function detailText(detail: Record<string, unknown> | undefined): string {
  const text = JSON.stringify(detail ?? {});
  return text.length <= MAX_DETAIL ? text : JSON.stringify({ truncated: true });
}

/** Writes one entry inside the caller's transaction: it commits or rolls back with the change. */
export async function recordAudit(q: Query, entry: NewAuditEntry): Promise<void> {
  const actor = entry.actor === undefined ? await knownActor() : entry.actor;
  const email = clip(actor?.email);
  const id = actor?.id;
  const at = entry.at ?? new Date().toISOString();
  const address = clip(entry.address ?? currentAddress()) ?? 'cli';
  // An actor named by email only (a content event's editor) gets their id in the same
  // statement; a typed email (a failed sign-in, id null) names an account only by its text.
  const lookUp = id === undefined ? email : null;
  await q`
    INSERT INTO audit_entries (at, action, actor_id, actor_email, page_id, slug, address, detail)
    VALUES (${at}, ${entry.action},
            COALESCE(${id ?? null}, (SELECT id FROM editors WHERE email = ${lookUp})), ${email},
            ${entry.pageId ?? null}, ${clip(entry.slug)}, ${address}, ${detailText(entry.detail)})`;
}

/**
 * Writes one entry on its own, for what changes nothing (a refused sign-in, a refused action):
 * a trail that cannot be written (the database busy or full) is logged, never the caller's
 * failure — the refusal it records is still the answer.
 */
export async function recordAuditAlone(db: Database, entry: NewAuditEntry): Promise<void> {
  try {
    await recordAudit(db.query, entry);
  } catch (error) {
    log.warn('audit entry not written', {
      action: entry.action,
      reason: error instanceof Error ? error.message : String(error),
    });
  }
}

/**
 * A refusal by the permission table (the guard), recorded on its own: the hostile cases of
 * issue 28 (a Contributor's forged publish, an Author's edit of another's page by its id) are
 * answered 403 and leave this entry, and nothing else.
 */
export async function recordRefusal(
  actor: AuditActor,
  asked: string,
  page: number | string | undefined,
): Promise<void> {
  let pageId = typeof page === 'number' ? page : null;
  let slug = typeof page === 'string' ? page : null;
  try {
    const db = await getDatabase();
    // The guard knows the page by id or by address: the entry names it by both when it can.
    if (page !== undefined) {
      const [row] = await db.query<{ id: number | string; slug: string }>`
        SELECT id, slug FROM pages WHERE id = ${pageId} OR slug = ${slug}`;
      if (row) [pageId, slug] = [Number(row.id), row.slug];
    }
    await recordAuditAlone(db, {
      action: 'action.refused',
      actor,
      pageId,
      slug,
      detail: { asked },
    });
  } catch (error) {
    // The refusal is the answer whatever the trail could do (recordAuditAlone logs its own).
    log.warn('audit entry not written', {
      action: 'action.refused',
      reason: error instanceof Error ? error.message : String(error),
    });
  }
}

/**
 * A People action (or an invitation's acceptance) refused by its own rules rather than the
 * permission table — yourself, the Owner, a screen gone stale (409), an invitation used,
 * withdrawn or whose sender is gone — recorded on its own, one entry per refused attempt, as
 * the guard's refusals are. `actor` null: nobody signed in (an invitation's link).
 */
export async function recordRefusedPeopleAction(
  db: Database,
  /** Left out (undefined): the request's signed-in person, as recordAudit reads it. */
  actor: AuditActor | null | undefined,
  asked: string,
  detail: { person?: string; reason: string },
): Promise<void> {
  await recordAuditAlone(db, { action: 'action.refused', actor, detail: { asked, ...detail } });
}

/** A refused sign-in, on its own (nothing else is written): who was tried, and why not. */
export async function recordSignInRefused(
  db: Database,
  email: string,
  reason: 'mismatch' | 'suspended' | 'throttled',
): Promise<void> {
  await recordAuditAlone(db, {
    action: 'sign-in.failed',
    actor: { id: null, email: email.trim().toLowerCase() },
    detail: { reason },
  });
}
