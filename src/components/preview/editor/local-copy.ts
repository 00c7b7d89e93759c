// Owns the copies of pages' shared documents this browser keeps in IndexedDB (decision record
// 0051, "IndexedDB"): their names, which of them are stale or too old, where they are listed,
// and forgetting them all at sign-out. The copy itself (y-indexeddb on the tab's Y.Doc) is
// opened by live-document.ts; this module loads no Yjs, so the sign-out form can use it.
//
// A copy is named by the document's identity (src/lib/coedit/identity.ts: the page and which of
// its documents) and a hash of the person's e-mail: it is merged only into that same document,
// by that same person. Copies are listed in localStorage with when they last changed, beside
// `indexedDB.databases()` where the browser has it, so the old and the stale can be found.
import { hashOf, parseIdentity } from '../../../lib/coedit/identity';
import type { EditorFormValues } from '../../../lib/editor/forms';

export const COPY_PREFIX = 'folio-coedit:';
/** A copy not changed for this long is deleted the next time an editor opens a page. */
export const COPY_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
/** The list of copies: name → when it last changed (ISO). */
const INDEX_KEY = 'folio:coedit-copies';
/** When this browser last signed out through Folio (ISO): a tab does not write its copy again. */
const FORGOTTEN_KEY = 'folio:coedit-forgotten';
/** Tells the other tabs of this browser to let go of their copies (sign-out). */
const CHANNEL = 'folio-coedit-copies';

/** The IndexedDB name of `person`'s copy of the document `identity`. */
export function copyName(identity: string, personKey: string): string {
  return `${COPY_PREFIX}${identity}:${hashOf(personKey.trim().toLowerCase())}`;
}

/** What a copy's name says; null for a database that is not one. */
export function parseCopyName(
  name: string,
): { identity: string; pageId: number; person: string } | null {
  if (!name.startsWith(COPY_PREFIX)) return null;
  const rest = name.slice(COPY_PREFIX.length);
  const at = rest.lastIndexOf(':');
  if (at < 0) return null;
  const person = rest.slice(at + 1);
  const parsed = parseIdentity(rest.slice(0, at));
  if (!parsed || !/^[0-9a-f]{8}$/.test(person)) return null;
  return { identity: parsed.identity, pageId: parsed.pageId, person };
}

/**
 * Copies to delete when the document `identity` is opened: the same page's under any other
 * identity (another document of the page: merged into this one they would double every line;
 * what they held that was never stored is offered by the form's backup instead), and any copy
 * not changed for COPY_MAX_AGE_MS (`changed`: name → ISO; a copy not listed there is left to
 * its page's next visit).
 */
export function copiesToDrop(
  names: Iterable<string>,
  identity: string,
  changed: Readonly<Record<string, string>>,
  now: number,
): string[] {
  const current = parseIdentity(identity);
  const drop: string[] = [];
  for (const name of new Set(names)) {
    const copy = parseCopyName(name);
    if (!copy) continue;
    const at = Date.parse(changed[name] ?? '');
    if (
      (current && copy.pageId === current.pageId && copy.identity !== current.identity) ||
      (Number.isFinite(at) && now - at > COPY_MAX_AGE_MS)
    )
      drop.push(name);
  }
  return drop;
}

/**
 * Whether the form's backup of a page (use-draft-recovery.ts) holds nothing the editor does not
 * show now, once a copy of the document was merged in: every line it added to the text the page
 * was rendered with is in the body now, and its title, summary and other fields are the
 * rendered or the current ones: then it is not offered (put-back.ts keptCovered, which asks it
 * with the text the typing was typed on in place of the rendered one, when known).
 */
export function backupCovered(
  backup: EditorFormValues,
  rendered: EditorFormValues,
  now: EditorFormValues,
): boolean {
  const lines = new Set(now.body.split('\n'));
  const base = new Set(rendered.body.split('\n'));
  const added = backup.body.split('\n').filter((line) => line.trim() !== '' && !base.has(line));
  if (!added.every((line) => lines.has(line))) return false;
  for (const key of Object.keys(backup) as (keyof EditorFormValues)[]) {
    if (key === 'body' || key === 'version') continue;
    if (backup[key] !== rendered[key] && backup[key] !== now[key]) return false;
  }
  return true;
}

function readIndex(): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(INDEX_KEY) ?? '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

function writeIndex(index: Record<string, string>) {
  try {
    window.localStorage.setItem(INDEX_KEY, JSON.stringify(index));
  } catch {
    // Storage full or refused: the age cap cannot see this copy; sign-out still finds it where
    // the browser lists its databases.
  }
}

/** Notes that the copy `name` changed now (its age counts from here). */
export function noteCopyChanged(name: string): void {
  writeIndex({ ...readIndex(), [name]: new Date().toISOString() });
}

/** Deletes the copy `name` (an open one in another tab closes; live-document.ts reopens it). */
export function deleteCopy(name: string): Promise<void> {
  const index = readIndex();
  if (name in index) {
    delete index[name];
    writeIndex(index);
  }
  return new Promise((resolve) => {
    try {
      const request = window.indexedDB.deleteDatabase(name);
      request.onsuccess = () => resolve();
      request.onerror = () => resolve();
      // Held open elsewhere: deleted once that closes; nothing waits for it here.
      request.onblocked = () => resolve();
    } catch {
      resolve();
    }
  });
}

/** Every copy this browser has: its databases where it lists them, and the list kept here. */
export async function listCopies(): Promise<string[]> {
  const names = new Set(Object.keys(readIndex()).filter((name) => parseCopyName(name)));
  try {
    if (typeof window.indexedDB?.databases === 'function')
      for (const db of await window.indexedDB.databases())
        if (db.name && parseCopyName(db.name)) names.add(db.name);
  } catch {
    // No IndexedDB (a private window): the list kept here is all there is.
  }
  return [...names];
}

/** Deletes the copies `copiesToDrop` names for the document `identity` now open. */
export async function dropStaleCopies(identity: string): Promise<void> {
  const names = await listCopies();
  await Promise.all(copiesToDrop(names, identity, readIndex(), Date.now()).map(deleteCopy));
}

/** Whether this browser signed out through Folio in the last minute. */
export function forgottenLately(): boolean {
  try {
    const at = Date.parse(window.localStorage.getItem(FORGOTTEN_KEY) ?? '');
    return Number.isFinite(at) && Date.now() - at < 60_000;
  } catch {
    return false;
  }
}

/** This tab's own copies, let go of before they are deleted at sign-out. */
const letGo = new Set<() => void>();
/** This tab's live documents waiting for the person to sign in again (onSignedIn). */
const waitingForSignIn = new Set<() => void>();
/**
 * The person signed out through Folio (in this tab or another) and has not loaded a signed-in
 * page since: a paused tab then waits to hear of one rather than trying a connection that has
 * no cookie to send (a 401 before the upgrade, which the browser logs at every try).
 */
let signedOut = false;
let channel: BroadcastChannel | null = null;

/** The channel to the other tabs, opened on first use. */
function tabs(): BroadcastChannel | null {
  if (channel || typeof BroadcastChannel === 'undefined') return channel;
  channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event: MessageEvent) => {
    if (event.data === SIGNED_IN) {
      signedOut = false;
      for (const resume of [...waitingForSignIn]) resume();
      return;
    }
    signedOut = true;
    for (const drop of [...letGo]) drop();
  };
  return channel;
}

const SIGNED_IN = 'signed-in';

/** Whether the person signed out through Folio and no signed-in page has loaded since. */
export function signedOutThroughFolio(): boolean {
  return signedOut;
}

/** Calls `resume` whenever another tab loads a page signed in; returns the way to stop. */
export function onSignedIn(resume: () => void): () => void {
  tabs();
  waitingForSignIn.add(resume);
  return () => waitingForSignIn.delete(resume);
}

/** A page of an editor signed in has loaded here: the paused tabs of this browser try again. */
export function noteSignedIn(): void {
  signedOut = false;
  tabs()?.postMessage(SIGNED_IN);
}

/** Calls `drop` when the person signs out in this tab or another (the copy must go). */
export function onForget(drop: () => void): () => void {
  tabs();
  letGo.add(drop);
  return () => letGo.delete(drop);
}

/**
 * Folio's sign-out: every copy in this browser is deleted (they hold draft text), this tab's and
 * the other tabs' let go of first. Text typed offline that no server has is then only in the
 * form's backup (localStorage), which a sign-out leaves as before.
 */
export async function forgetAllCopies(): Promise<void> {
  try {
    window.localStorage.setItem(FORGOTTEN_KEY, new Date().toISOString());
  } catch {
    // Refused storage: the other tabs still hear the channel.
  }
  signedOut = true;
  for (const drop of [...letGo]) drop();
  tabs()?.postMessage('forget');
  const names = await listCopies();
  await Promise.all(names.map(deleteCopy));
  try {
    window.localStorage.removeItem(INDEX_KEY);
  } catch {
    // Nothing listed is left to list.
  }
}
