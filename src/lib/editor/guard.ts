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
import { isDatabaseBusy, isDatabaseFull, isDatabaseUnavailable } from '../data/db-errors';
import type { EditorSession } from '../editors/accounts';
import { type Action, can, type PageOwnership, refusalOf } from '../editors/permissions';
import { currentEditorSession } from '../editors/session';
import { reportDatabaseFull } from '../observability/errors';

export type { EditorSession };

/** What every action tells a caller whose session has ended (their text stays in the form). */
export const SIGNED_OUT_MESSAGE =
  'Your session has ended. Sign in again in another tab, then try again: your text is kept here.';

/** Why an action did not run: the words for the editor, and the reason for its answer. */
export type EditorRefusal = {
  reason: 'signed-out' | 'forbidden' | 'busy' | 'unavailable';
  message: string;
};

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
 * action, or a page not made yet: the asker's own).
 */
export type Asked = { action: Action; page?: number | string };

/**
 * Refuses (an EditorRefused, 'forbidden', in words) unless `session`'s person may do every
 * one of `asked`. A page that does not exist is let through: the action's own answer to a page
 * deleted meanwhile ("gone") is the right one, and it cannot act on a page that is not there.
 */
export async function requirePermission(
  session: EditorSession,
  asked: readonly Asked[],
): Promise<void> {
  const ownership = new Map<number | string, PageOwnership | null>();
  for (const { action, page: ref } of asked) {
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
}
