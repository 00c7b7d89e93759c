// Owns the one question every editor action and screen asks first: who is signing this, and
// may they? `requireEditor()` answers with the signed-in editor or throws an EditorRefused that
// says why not (signed out; or the database, busy or out of reach, cannot say), in the one
// signed-out sentence. `requirePermission()` answers the second question — may this person do
// these things, to these pages? — from the one table (editors/permissions.ts), refusing with a
// 'forbidden' reason; every action names what it asks (action.ts's `may`), so none can forget.
import 'server-only';
import { recordRefusal } from '../audit/audit';
import {
  BUSY_MESSAGE,
  contentStore,
  FULL_MESSAGE,
  isContentError,
  UNAVAILABLE_MESSAGE,
} from '../content/content';
import { getDatabase } from '../data/db';
import { isDatabaseBusy, isDatabaseFull, isDatabaseUnavailable } from '../data/db-errors';
import type { EditorSession } from '../editors/accounts';
import { CONFIRMATION_MINUTES, confirmedRecently } from '../editors/confirmation';
import { type Action, can, type PageOwnership, refusalOf } from '../editors/permissions';
import { secondFactorMissing } from '../editors/second-factor';
import { currentEditorSession } from '../editors/session';
import { SECURITY_SCREEN } from '../http/routes';
import { reportDatabaseFull } from '../observability/errors';

export type { EditorSession };

/** What every action tells a caller whose session has ended (their text stays in the form). */
export const SIGNED_OUT_MESSAGE =
  'Your session has ended. Sign in again in another tab, then try again: your text is kept here.';

/** Why an action did not run: the words for the editor, and the reason for its answer. */
export type EditorRefusal = {
  reason: 'signed-out' | 'forbidden' | 'busy' | 'unavailable';
  message: string;
  /**
   * Refused because the site's rule asks this person for a second factor and they have none:
   * a command lands on the security screen rather than on its own page (action.ts).
   */
  secondFactor?: true;
  /**
   * Refused because changing one's sign-in needs the password typed in the last ten minutes
   * (editors/confirmation.ts): a command lands on the security screen, which asks for it.
   */
  confirm?: true;
};

/** Where a person the site's rule covers sets up a second factor, and is told why. */
export const SECOND_FACTOR_SCREEN = `${SECURITY_SCREEN}&notice=second-factor-required`;

/** What every action but the security screen's own says to someone who must set one up first. */
export const SECOND_FACTOR_MESSAGE =
  'Nothing was changed: this site asks people in your role for a second factor. Set up a passkey or an authenticator app on the Security screen (/preview?security) first; your text is kept here.';

/** Thrown by requireEditor(); the action wrapper (action.ts) turns it into the form's answer. */
export class EditorRefused extends Error {
  constructor(
    readonly refusal: EditorRefusal,
    options?: { cause: unknown },
  ) {
    super(refusal.message, options);
    this.name = 'EditorRefused';
  }
}

export function isEditorRefused(error: unknown): error is EditorRefused {
  return error instanceof EditorRefused;
}

/**
 * Why an error means nothing was done because the database is locked past its timeout or out
 * of reach, in an editor's words; null for any other error.
 */
export function databaseRefusal(error: unknown): EditorRefusal | null {
  // A full disk is answered as "cannot save right now" (the text kept), and reported here, once
  // a minute at most: the refusal is the form's answer, so no error reaches the middleware.
  // The store's ContentError carries it as its words (FULL_MESSAGE), a raw error as its code.
  const full = isContentError(error) ? error.message === FULL_MESSAGE : isDatabaseFull(error);
  if (full) {
    reportDatabaseFull();
    return { reason: 'unavailable', message: FULL_MESSAGE };
  }
  if (isContentError(error) && (error.code === 'busy' || error.code === 'unavailable'))
    return { reason: error.code, message: error.message };
  if (isDatabaseBusy(error)) return { reason: 'busy', message: BUSY_MESSAGE };
  if (isDatabaseUnavailable(error)) return { reason: 'unavailable', message: UNAVAILABLE_MESSAGE };
  return null;
}

/**
 * The signed-in editor of this request, or null: for screens that show a signed-out visitor
 * something else (the sign-in form, a shared draft). A database that cannot say is thrown as
 * its own error, so the page answers it as every page does (503, busy or unreachable).
 */
export async function signedInEditor(): Promise<EditorSession | null> {
  try {
    return await requireEditor();
  } catch (error) {
    if (!isEditorRefused(error)) throw error;
    if (error.refusal.reason === 'signed-out') return null;
    throw error.cause;
  }
}

/** The signed-in editor of this request, or an EditorRefused saying why there is none. */
export async function requireEditor(): Promise<EditorSession> {
  let session: EditorSession | null;
  try {
    session = await currentEditorSession();
  } catch (error) {
    const refusal = databaseRefusal(error);
    if (refusal === null) throw error;
    throw new EditorRefused(refusal, { cause: error });
  }
  if (!session) throw new EditorRefused({ reason: 'signed-out', message: SIGNED_OUT_MESSAGE });
  return session;
}

/**
 * What an action asks permission for: an action of the table, about a page — `page`: an
 * existing page's id, or its address when the form names no id — or about none (a site-wide
 * action, or a page not made yet: the asker's own). `OWN_SIGN_IN`: managing one's own sign-in
 * (the security screen's passkeys and app), the one thing someone the site's rule asks for a
 * second factor may do before they have one.
 */
export type Asked = {
  action: Action | typeof OWN_SIGN_IN.action;
  page?: number | string;
  /** The password typed in this session within the last ten minutes (requireRecentConfirmation). */
  recentlyConfirmed?: true;
};
export const OWN_SIGN_IN = { action: 'own-sign-in' } as const;
/**
 * Changing one's own sign-in (a passkey added or removed, the app turned on or off, new
 * recovery codes): OWN_SIGN_IN, and only with a recent confirmation that it is them.
 */
export const CHANGE_OWN_SIGN_IN = { action: 'own-sign-in', recentlyConfirmed: true } as const;

/** What every action that changes one's sign-in says when the password was not typed lately. */
export const CONFIRM_FIRST_MESSAGE = `Nothing was changed: confirm it is you first. Reload the Security screen (/preview?security) and type your password there; it is asked again ${CONFIRMATION_MINUTES} minutes after you last typed it.`;

/**
 * Refuses (an EditorRefused, 'forbidden', in words) unless `session`'s person typed their
 * password in it lately (a sign-in counts): the one place the rule is enforced.
 */
export function requireRecentConfirmation(session: EditorSession): void {
  if (!confirmedRecently(session))
    throw new EditorRefused({ reason: 'forbidden', message: CONFIRM_FIRST_MESSAGE, confirm: true });
}

/**
 * Whether the site's rule leaves this session's person unable to act (covered, no factor yet):
 * asked once per session object, so an action that asks twice (a delete), and the screen the
 * same request renders (screens.ts), cost one query.
 */
const factorChecks = new WeakMap<EditorSession, Promise<boolean>>();
export async function mustSetUpFirst(session: EditorSession): Promise<boolean> {
  let check = factorChecks.get(session);
  if (!check) {
    check = getDatabase().then((db) => secondFactorMissing(db.query, session.editor));
    factorChecks.set(session, check);
  }
  return check;
}

/**
 * Refuses (an EditorRefused, 'forbidden', in words) unless `session`'s person may do every
 * one of `asked`. A page that does not exist is let through: the action's own answer to a page
 * deleted meanwhile ("gone") is the right one, and it cannot act on a page that is not there.
 * Someone the site's rule asks for a second factor who has none may do nothing but set one up
 * (OWN_SIGN_IN): the rule is enforced here, not only by the landing after sign-in. Changing
 * one's sign-in (CHANGE_OWN_SIGN_IN) also needs a recent confirmation that it is them.
 */
export async function requirePermission(
  session: EditorSession,
  asked: readonly Asked[],
): Promise<void> {
  const ownership = new Map<number | string, PageOwnership | null>();
  for (const { action, page: ref } of asked) {
    if (action === OWN_SIGN_IN.action) continue;
    let page: PageOwnership | undefined;
    if (ref !== undefined) {
      if (!ownership.has(ref)) ownership.set(ref, await contentStore().pageOwnership(ref));
      const found = ownership.get(ref);
      if (!found) continue;
      page = found;
    }
    if (!can(session.editor, action, page)) {
      await recordRefusal(session.editor, action, ref);
      throw new EditorRefused({ reason: 'forbidden', message: refusalOf(session.editor, action) });
    }
  }
  // After the table: what the role may never do is said as such, whatever the factors.
  const ownSignIn = asked.length > 0 && asked.every(({ action }) => action === OWN_SIGN_IN.action);
  if (!ownSignIn && (await mustSetUpFirst(session)))
    throw new EditorRefused({
      reason: 'forbidden',
      message: SECOND_FACTOR_MESSAGE,
      secondFactor: true,
    });
  if (asked.some((one) => one.recentlyConfirmed)) requireRecentConfirmation(session);
}
