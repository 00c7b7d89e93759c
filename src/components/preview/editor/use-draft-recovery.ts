// Owns the copy of unsaved text this browser keeps (localStorage, one per page) until the
// server has it, and the offer to put back a copy an earlier visit left.
import { type Dispatch, type SetStateAction, useEffect, useRef, useState } from 'react';
import { hashOf } from '../../../lib/coedit/identity';
import type { EditorFormValues } from '../../../lib/editor/forms';
import { sameText } from './editor-text';
import { backupCovered } from './local-copy';

export type Backup = { values: EditorFormValues; at: string };

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

export function useDraftRecovery({
  initial,
  savedAt,
  values,
  setValues,
  dirty,
  enhanced,
  liveBound = false,
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
  useEffect(() => {
    const key = backupKey(initial, person);
    if (backupOffered.current === key) return;
    backupOffered.current = key;
    if (written.current.has(key)) return;
    const found = readBackup(key);
    // Older than the last save, it is still offered when it was typed on an older version
    // (someone saved over it, maybe mid-conflict): put back, it merges with theirs.
    if (
      found &&
      !sameText(found.values, initial) &&
      (!savedAt || found.at > savedAt || found.values.version !== initial.version)
    )
      setBackup(found);
  }, [initial, savedAt, person]);

  // Bound to the shared document, with this browser's copy of it merged in (live-document.ts):
  // a backup whose typing is all on screen now has nothing of its own, and putting it back
  // (the whole text) would drop what the others typed since — so it is no longer offered.
  useEffect(() => {
    if (liveBound && backup && backupCovered(backup.values, initial, values)) setBackup(null);
  }, [liveBound, backup, initial, values]);

  // A copy of unsaved text stays in this browser until the server has it.
  useEffect(() => {
    if (!enhanced) return;
    const key = backupKey(values, person);
    if (dirty)
      try {
        written.current.add(key);
        window.localStorage.setItem(key, JSON.stringify({ values, at: new Date().toISOString() }));
      } catch {
        // Over the browser's storage quota (a body of megabytes): the text stays in the form.
      }
    else window.localStorage.removeItem(key);
  }, [values, dirty, enhanced, person]);

  return {
    backup,
    /**
     * The kept text back in the form; the page's identity stays the one on screen, but the
     * version stays the one the text was typed on: saved, it merges with what was saved since
     * (the crash may have come mid-conflict), instead of silently replacing it.
     */
    putBack() {
      if (!backup) return;
      setValues((current) => ({
        ...backup.values,
        pageId: current.pageId,
        version:
          backup.values.pageId === current.pageId && /^\d+$/.test(backup.values.version ?? '')
            ? backup.values.version
            : current.version,
        originalSlug: current.originalSlug,
      }));
      setBackup(null);
    },
    discard() {
      window.localStorage.removeItem(backupKey(initial, person));
      setBackup(null);
    },
  };
}
