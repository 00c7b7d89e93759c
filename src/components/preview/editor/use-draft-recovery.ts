// Owns the copy of unsaved text this browser keeps (localStorage, one per page) until the
// server has it, and the offer to put back a copy an earlier visit left — kept, once offered,
// until it is answered (a reload no longer loses it).
import {
  type Dispatch,
  type RefObject,
  type SetStateAction,
  useEffect,
  useRef,
  useState,
} from 'react';
import { hashOf } from '../../../lib/coedit/identity';
import type { EditorFormValues } from '../../../lib/editor/forms';
import { sameText } from './editor-text';
import { type InStep, keptCovered, putBackLive } from './put-back';

/**
 * `base`: while the editor showed the shared document, the text it last had in step with the
 * server, which the unsent typing was typed on (put-back.ts merges only that typing back).
 */
export type Backup = { values: EditorFormValues; at: string; base?: InStep | null };

/** Where a backup waits once offered, until it is put back or discarded. */
function offeredKey(key: string): string {
  return `${key}:offered`;
}

/**
 * Where this browser keeps a page's unsaved text for one person: another person signed in in
 * the same browser is never offered it, nor saves it as theirs (hostile pass, 2026-11-27: a
 * revoked editor's unsent text was put back and saved by the next person to sign in). The
 * person is a hash of their e-mail, as for the document's IndexedDB copy (local-copy.ts).
 * Copies kept before this (`folio:unsaved:<page>`) are whose nobody can tell: not offered.
 */
export function backupKey(values: EditorFormValues, person: string): string {
  return `folio:unsaved:${values.pageId || 'new'}:${hashOf(person.trim().toLowerCase())}`;
}

function readBackup(key: string): Backup | null {
  try {
    const raw = window.localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as Backup) : null;
  } catch {
    return null;
  }
}

function writeBackup(key: string, backup: Backup) {
  try {
    window.localStorage.setItem(key, JSON.stringify(backup));
  } catch {
    // Over the browser's storage quota (a body of megabytes): the text stays in the form.
  }
}

/**
 * The form's values with `backup` put back: bound, what was typed is merged into the text on
 * screen, everyone's (put-back.ts), and the shared document takes the difference as this tab's
 * edit. The page's identity stays the one on screen, but the version stays the one the text was
 * typed on: saved, it merges with what was saved since (the crash may have come mid-conflict),
 * instead of silently replacing it.
 */
function putBackInto(backup: Backup, current: EditorFormValues, liveBound: boolean) {
  return {
    ...(liveBound ? putBackLive(backup.values, backup.base ?? null, current) : backup.values),
    pageId: current.pageId,
    version:
      backup.values.pageId === current.pageId && /^\d+$/.test(backup.values.version ?? '')
        ? backup.values.version
        : current.version,
    originalSlug: current.originalSlug,
  };
}

export function useDraftRecovery({
  initial,
  savedAt,
  values,
  setValues,
  dirty,
  enhanced,
  liveBound = false,
  inStep,
  putBackAtOnce = false,
  person,
}: {
  initial: EditorFormValues;
  savedAt: string | null;
  values: EditorFormValues;
  setValues: Dispatch<SetStateAction<EditorFormValues>>;
  dirty: boolean;
  enhanced: boolean;
  /** The editor shows the page's shared document (and this browser's copy of it, merged in). */
  liveBound?: boolean;
  /** Bound: the text last in step with the server (what a backup's typing is typed on). */
  inStep?: RefObject<InStep | null>;
  /**
   * Bound, and this browser's copy of the document brought nothing the server lacked: a backup's
   * typing beyond its base reached neither, and is put back by itself rather than offered.
   */
  putBackAtOnce?: boolean;
  /** The signed-in person's e-mail: whose copy it is. */
  person: string;
}) {
  const [backup, setBackup] = useState<Backup | null>(null);

  // After hydration, a copy this browser kept from an earlier visit is offered once per page —
  // not on every re-render of the route (an upload re-renders it while the text being typed
  // is, rightly, unsaved).
  const backupOffered = useRef<string | null>(null);
  // Copies this editor wrote itself: a new page's first save gives it an id, and the text typed
  // meanwhile, kept under that id, is the text on screen, not an earlier visit's (issue 26).
  const written = useRef(new Set<string>());
  // The backup found was offered on an earlier visit and left unanswered: offered again, never
  // put back unasked.
  const offeredBefore = useRef(false);
  useEffect(() => {
    const key = backupKey(initial, person);
    if (backupOffered.current === key) return;
    backupOffered.current = key;
    if (written.current.has(key)) return;
    // One offered on an earlier visit and not answered first: this visit's typing, stored under
    // the key, would write over it (a stale tab's typing was lost at the second reload).
    const earlier = readBackup(offeredKey(key));
    offeredBefore.current = earlier !== null;
    const found = earlier ?? readBackup(key);
    // Older than the last save, it is still offered when it was typed on an older version
    // (someone saved over it, maybe mid-conflict): put back, it merges with theirs.
    if (
      found &&
      !sameText(found.values, initial) &&
      (!savedAt || found.at > savedAt || found.values.version !== initial.version)
    ) {
      writeBackup(offeredKey(key), found);
      setBackup(found);
    } else window.localStorage.removeItem(offeredKey(key));
  }, [initial, savedAt, person]);

  // Bound to the shared document, with this browser's copy of it merged in (live-document.ts):
  // a backup whose typing is all on screen now has nothing of its own: no longer offered. One
  // kept by a live tab with the text it was typed on (its base), whose typing is not all on
  // screen, is put back at once, as the tab itself would have sent it, when the copy brought
  // none of it: the copy was of a document made again since (local-copy.ts drops those), or
  // the reload came before it was written. Offered instead, the keys typed in the half second
  // before a reload were missing from the editor while its status said "Saved" (hostile pass on
  // documents made again). Only what was typed beyond the base goes in (put-back.ts). A copy
  // that brought some of it (written a few keys behind the backup) leaves the rest offered:
  // merged by itself, the part both hold would go in twice.
  useEffect(() => {
    if (!liveBound || !backup) return;
    const covered = keptCovered(backup.values, backup.base ?? null, initial, values);
    if (!covered && (!backup.base || offeredBefore.current || !putBackAtOnce)) return;
    if (!covered) setValues((current) => putBackInto(backup, current, liveBound));
    window.localStorage.removeItem(offeredKey(backupKey(initial, person)));
    setBackup(null);
  }, [liveBound, backup, initial, values, person, setValues, putBackAtOnce]);

  // A copy of unsaved text stays in this browser until the server has it.
  useEffect(() => {
    if (!enhanced) return;
    const key = backupKey(values, person);
    if (dirty) {
      written.current.add(key);
      writeBackup(key, {
        values,
        at: new Date().toISOString(),
        ...(liveBound ? { base: inStep?.current ?? null } : {}),
      });
    } else window.localStorage.removeItem(key);
  }, [values, dirty, enhanced, person, liveBound, inStep]);

  return {
    backup,
    /** The kept text back in the form (putBackInto). */
    putBack() {
      if (!backup) return;
      setValues((current) => putBackInto(backup, current, liveBound));
      window.localStorage.removeItem(offeredKey(backupKey(initial, person)));
      setBackup(null);
    },
    discard() {
      window.localStorage.removeItem(backupKey(initial, person));
      window.localStorage.removeItem(offeredKey(backupKey(initial, person)));
      setBackup(null);
    },
  };
}
