// Owns what the People and Sessions screens do to accounts (issue 28, decision 0039): list
// everyone with their role, state and sessions; change a role, suspend, restore, remove — each
// refused in words when it would leave the site without its Owner, act on oneself, or undo
// another Administrator's change made since the form was drawn (`editors.version`) — and a
// person's own sessions: where and when each is signed in, ended one by one or all but this.
// The permission to do any of it is the guard's (action.ts's `may`); what is checked here is
// what the table cannot know: who the person acted on is, and what they are now.
import 'server-only';
import { parse } from 'hono/utils/cookie';
import { recordAudit } from '../audit/audit';
import { type Database, getDatabase, type Query } from '../data/db';
import { requestContext } from '../http/request-context';
import { SESSION_COOKIE } from '../http/routes';
import { revokeLinksMadeBy } from '../share-links/share-links';
import {
  type Editor,
  endAllSessions,
  hashSessionId,
  OWNER_STAYS,
  RoleRefused,
  removeEditor,
  SUSPENDED_HEIR,
} from './accounts';
import { type Invitation, type InvitedRole, pendingInvitations } from './invitations';
import { isRole, type Role } from './permissions';

/** Why a change to a person was refused: the words, and the status the form answers with. */
export class PeopleRefused extends Error {
  constructor(
    message: string,
    readonly code: 'gone' | 'stale' | 'self' | 'owner' | 'invalid',
  ) {
    super(message);
    this.name = 'PeopleRefused';
  }
}

/** A refusal of this module or of accounts.ts (the Owner stays), as one thing to answer. */
export function peopleRefusal(error: unknown): PeopleRefused | null {
  if (error instanceof PeopleRefused) return error;
  if (error instanceof RoleRefused) return new PeopleRefused(error.message, 'owner');
  return null;
}

const GONE = 'This person no longer has an account here (someone removed them meanwhile).';
const STALE =
  'Someone changed this person since this screen was shown. Nothing was changed: look again at their role and state below, then choose again.';

export type Person = Editor & {
  suspended: boolean;
  version: number;
  createdAt: string;
  openSessions: number;
  /** When they last signed in: the audit trail's newest sign-in (kept a year), or a session's
   * start (accepting an invitation signs in without a sign-in entry). */
  lastSignIn: string | null;
  lastSeen: string | null;
};

/** Everyone with an account, by email. */
export async function listPeople(db: Database, now = Date.now()): Promise<Person[]> {
  // The last sign-in is read from the audit trail too (walk-through, issue 28): a suspended
  // person's sessions are gone, and with them the only other record of it ("Not known" for
  // someone who signed in a minute before). One index seek (audit_entries_actor_action) each.
  const at = new Date(now).toISOString();
  const rows = await db.query<{
    id: number;
    email: string;
    role: string;
    suspended_at: string | null;
    version: number;
    created_at: string;
    open_sessions: number | string;
    last_sign_in: string | null;
    last_audited_sign_in: string | null;
    last_seen: string | null;
  }>`
    SELECT e.id, e.email, e.role, e.suspended_at, e.version, e.created_at,
      (SELECT COUNT(*) FROM editor_sessions s
       WHERE s.editor_id = e.id AND s.expires_at > ${at}) AS open_sessions,
      (SELECT MAX(s.created_at) FROM editor_sessions s WHERE s.editor_id = e.id) AS last_sign_in,
      (SELECT a.at FROM audit_entries a WHERE a.actor_email = e.email AND a.action = 'sign-in'
       ORDER BY a.id DESC LIMIT 1) AS last_audited_sign_in,
      (SELECT MAX(s.last_seen_at) FROM editor_sessions s WHERE s.editor_id = e.id) AS last_seen
    FROM editors e ORDER BY e.email`;
  return rows.map((row) => ({
    id: Number(row.id),
    email: row.email,
    role: isRole(row.role) ? row.role : 'contributor',
    suspended: row.suspended_at !== null,
    version: Number(row.version),
    createdAt: row.created_at,
    openSessions: Number(row.open_sessions),
    lastSignIn: later(row.last_sign_in, row.last_audited_sign_in),
    lastSeen: row.last_seen,
  }));
}

/** The later of two ISO instants, either possibly missing. */
function later(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return Date.parse(a) >= Date.parse(b) ? a : b;
}

type Target = { id: number; email: string; role: Role; version: number; suspended: boolean };

/** The person acted on, at the version the form was made from; refused otherwise. */
async function target(q: Query, personId: number, version: number | null): Promise<Target> {
  const [row] = await q<{
    id: number;
    email: string;
    role: string;
    version: number;
    suspended_at: string | null;
  }>`
    SELECT id, email, role, version, suspended_at FROM editors WHERE id = ${personId}`;
  if (!row || !isRole(row.role)) throw new PeopleRefused(GONE, 'gone');
  if (version !== null && Number(row.version) !== version) throw new PeopleRefused(STALE, 'stale');
  return {
    id: Number(row.id),
    email: row.email,
    role: row.role,
    version: Number(row.version),
    suspended: row.suspended_at !== null,
  };
}

/**
 * Gives a person a role. Not one's own (another Administrator does it: nobody locks themself
 * out by a slip); the Owner's role is never taken here, only handed over — making someone the
 * Owner, which only the Owner does, makes the Owner before an Administrator in the same commit.
 */
export async function setRole(
  db: Database,
  actor: Editor,
  change: { personId: number; role: Role; version: number },
): Promise<{ email: string; role: Role; was: Role; previousOwner: string | null }> {
  return db.transaction(async (q) => {
    const person = await target(q, change.personId, change.version);
    if (person.id === actor.id)
      throw new PeopleRefused(
        'You cannot change your own role. Ask another Administrator, or hand the site over if you are its Owner.',
        'self',
      );
    if (person.role === change.role)
      return { email: person.email, role: person.role, was: person.role, previousOwner: null };
    if (person.role === 'owner') throw new PeopleRefused(OWNER_STAYS, 'owner');
    let previousOwner: string | null = null;
    if (change.role === 'owner') {
      // Asked of the database too, not only of the session read at the start of the request.
      const [me] = await q<{ role: string }>`SELECT role FROM editors WHERE id = ${actor.id}`;
      if (me?.role !== 'owner')
        throw new PeopleRefused('Only the Owner can hand the site over.', 'owner');
      if (person.suspended) throw new PeopleRefused(SUSPENDED_HEIR, 'owner');
      const [owner] = await q<{ email: string }>`
        UPDATE editors SET role = 'administrator', version = version + 1
        WHERE role = 'owner' RETURNING email`;
      previousOwner = owner?.email ?? null;
    }
    const changed = await q`
      UPDATE editors SET role = ${change.role}, version = version + 1
      WHERE id = ${person.id} AND version = ${person.version} RETURNING id`;
    if (changed.length === 0) throw new PeopleRefused(STALE, 'stale');
    await recordAudit(q, {
      action: 'editor.role_changed',
      actor,
      detail: { person: person.email, from: person.role, to: change.role, previousOwner },
    });
    return { email: person.email, role: change.role, was: person.role, previousOwner };
  });
}

/** What is done to a person, as the refusals say it ("suspend yourself", "be suspended"). */
type Doing = { verb: string; done: string };
const SUSPENDING: Doing = { verb: 'suspend', done: 'suspended' };
const RESTORING: Doing = { verb: 'restore', done: 'restored' };
const REMOVING: Doing = { verb: 'remove', done: 'removed' };

function refuseOwnerOrSelf(actor: Editor, person: Target, doing: Doing): void {
  if (person.id === actor.id)
    throw new PeopleRefused(
      `You cannot ${doing.verb} yourself. Ask another Administrator.`,
      'self',
    );
  if (person.role === 'owner')
    throw new PeopleRefused(`The Owner cannot be ${doing.done}. ${OWNER_STAYS}`, 'owner');
}

/**
 * Suspends a person (they keep their account and pages, cannot sign in; every session ends and
 * every share link they made is revoked, in the same commit, as on removal) or restores them.
 */
export async function setSuspended(
  db: Database,
  actor: Editor,
  change: { personId: number; version: number; suspend: boolean },
  now = Date.now(),
): Promise<{ email: string; sessionsEnded: number; linksRevoked: number }> {
  return db.transaction(async (q) => {
    const person = await target(q, change.personId, change.version);
    refuseOwnerOrSelf(actor, person, change.suspend ? SUSPENDING : RESTORING);
    const at = change.suspend ? new Date(now).toISOString() : null;
    await q`UPDATE editors SET suspended_at = ${at}, version = version + 1 WHERE id = ${person.id}`;
    if (!change.suspend) {
      await recordAudit(q, {
        action: 'editor.unsuspended',
        actor,
        detail: { person: person.email },
      });
      return { email: person.email, sessionsEnded: 0, linksRevoked: 0 };
    }
    const ended = {
      sessionsEnded: await endAllSessions(q, person.id),
      linksRevoked: await revokeLinksMadeBy(q, person.email),
    };
    await recordAudit(q, {
      action: 'editor.suspended',
      actor,
      detail: { person: person.email, ...ended },
    });
    return { email: person.email, ...ended };
  });
}

/**
 * Removes a person: their account, sessions and share links (accounts.ts's removeEditor); their
 * pages stay, and so does their public author profile (its editor is set to none).
 */
export async function removePerson(
  db: Database,
  actor: Editor,
  personId: number,
  version: number | null,
): Promise<{ email: string; linksRevoked: number }> {
  const person = await target(db.query, personId, version);
  refuseOwnerOrSelf(actor, person, REMOVING);
  // The version is asked again by the delete itself: a change another Administrator makes
  // between the check above and the removal is not removed over unseen.
  const removed = await removeEditor(db, person.email, { version: person.version });
  if (!removed) {
    await target(db.query, personId, person.version);
    throw new PeopleRefused(GONE, 'gone');
  }
  return { email: person.email, linksRevoked: removed.linksRevoked };
}

/**
 * Ends every session of a person (the People screen); how many there were. Not the Owner's, by
 * anyone else (hostile pass 2, issue 28): an Administrator could otherwise sign the Owner out
 * at will, as they may not suspend or remove them.
 */
export async function endPersonSessions(
  db: Database,
  actor: Editor,
  personId: number,
): Promise<number> {
  return db.transaction(async (q) => {
    const person = await target(q, personId, null);
    if (person.role === 'owner' && person.id !== actor.id)
      throw new PeopleRefused(
        'The Owner’s sessions can be ended only by the Owner, on their own sessions screen. Nothing was changed.',
        'owner',
      );
    const sessionsEnded = await endAllSessions(q, personId);
    await recordAudit(q, {
      action: 'editor.sessions_ended',
      actor,
      detail: { person: person.email, sessionsEnded },
    });
    return sessionsEnded;
  });
}

export type SessionRow = {
  /** The stored hash of the session's id: names it in a form, opens nothing. */
  key: string;
  createdAt: string;
  expiresAt: string;
  lastSeenAt: string | null;
  address: string | null;
  userAgent: string | null;
  current: boolean;
};

/** A person's open sessions, newest first; `currentKey` marks the one asking. */
export async function sessionsOf(
  db: Database,
  editorId: number,
  currentKey: string | null,
  now = Date.now(),
): Promise<SessionRow[]> {
  const rows = await db.query<{
    id_hash: string;
    created_at: string;
    expires_at: string;
    last_seen_at: string | null;
    address: string | null;
    user_agent: string | null;
  }>`
    SELECT id_hash, created_at, expires_at, last_seen_at, address, user_agent
    FROM editor_sessions
    WHERE editor_id = ${editorId} AND expires_at > ${new Date(now).toISOString()}
    ORDER BY created_at DESC, id_hash`;
  return rows.map((row) => ({
    key: row.id_hash,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastSeenAt: row.last_seen_at,
    address: row.address,
    userAgent: row.user_agent,
    current: row.id_hash === currentKey,
  }));
}

/**
 * Ends sessions of `editorId` only: the one `key` names, or with `allBut` every one except it.
 * How many ended (0: already ended, say so).
 */
export async function endOwnSessions(
  db: Database,
  editorId: number,
  { key, allBut }: { key: string; allBut: boolean },
): Promise<number> {
  const ended = allBut
    ? await db.query`DELETE FROM editor_sessions
        WHERE editor_id = ${editorId} AND id_hash <> ${key} RETURNING id_hash`
    : await db.query`DELETE FROM editor_sessions
        WHERE editor_id = ${editorId} AND id_hash = ${key} RETURNING id_hash`;
  return ended.length;
}

// ---- The request's own session (the screens and actions ask through these) ----

/** The stored key (hash) of this request's session cookie, or null. */
export function currentSessionKey(): string | null {
  const header = requestContext().request.headers.get('cookie');
  const id = header ? parse(header, SESSION_COOKIE)[SESSION_COOKIE] : undefined;
  return id ? hashSessionId(id) : null;
}

/** How stale "last seen" may be: one write per session every few minutes, not per request. */
const SEEN_EVERY_MS = 5 * 60 * 1000;

/**
 * Notes where and when this request's session was used: its address and browser, at most every
 * SEEN_EVERY_MS (and at once when either changed). A write that cannot happen (the database
 * busy) is skipped: it is a courtesy to the Sessions screen, never a reason to fail a page.
 */
export async function noteSessionSeen(now = Date.now()): Promise<void> {
  try {
    const key = currentSessionKey();
    if (!key) return;
    const context = requestContext();
    const address = context.clientAddress.slice(0, 100);
    const agent = (context.request.headers.get('user-agent') ?? '').slice(0, 300);
    const at = new Date(now).toISOString();
    const before = new Date(now - SEEN_EVERY_MS).toISOString();
    const db = await getDatabase();
    // A read first: most requests find nothing to note, and a read takes no write lock (a long
    // import holding it must not stall every editor screen for the busy timeout).
    const [row] = await db.query<{
      last_seen_at: string | null;
      address: string | null;
      user_agent: string | null;
    }>`SELECT last_seen_at, address, user_agent FROM editor_sessions WHERE id_hash = ${key}`;
    if (
      !row ||
      (row.last_seen_at !== null &&
        row.last_seen_at >= before &&
        row.address === address &&
        row.user_agent === agent)
    )
      return;
    await db.query`
      UPDATE editor_sessions SET last_seen_at = ${at}, address = ${address}, user_agent = ${agent}
      WHERE id_hash = ${key}`;
  } catch {
    // See above: never fails the page it runs in.
  }
}

/** The People screen's data. */
export async function peopleScreenData(): Promise<{
  people: Person[];
  invitations: Invitation[];
}> {
  const db = await getDatabase();
  const [people, invitations] = await Promise.all([listPeople(db), pendingInvitations(db)]);
  return { people, invitations };
}

/** The Sessions screen's data: the signed-in person's open sessions. */
export async function ownSessions(editorId: number): Promise<SessionRow[]> {
  return sessionsOf(await getDatabase(), editorId, currentSessionKey());
}

export type { InvitedRole };
