// Owns the copy of unsaved text this browser keeps (localStorage, one per page) until the
// server has it, and the offer to put back a copy an earlier visit left.
import { type Dispatch, type SetStateAction, useEffect, useRef, useState } from 'react';
import type { EditorFormValues } from '../../../lib/editor/forms';
import { sameText } from './editor-text';
import { backupCovered } from './local-copy';

export type Backup = { values: EditorFormValues; at: string };

export function backupKey(values: EditorFormValues): string {
  return `folio:unsaved:${values.pageId || 'new'}`;
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
}: {
  initial: EditorFormValues;
  savedAt: string | null;
  values: EditorFormValues;
  setValues: Dispatch<SetStateAction<EditorFormValues>>;
  dirty: boolean;
  enhanced: boolean;
  /** The editor shows the page's shared document (and this browser's copy of it, merged in). */
  liveBound?: boolean;
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
    const key = backupKey(initial);
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
  }, [initial, savedAt]);

  // Bound to the shared document, with this browser's copy of it merged in (live-document.ts):
  // a backup whose typing is all on screen now has nothing of its own, and putting it back
  // (the whole text) would drop what the others typed since — so it is no longer offered.
  useEffect(() => {
    if (liveBound && backup && backupCovered(backup.values, initial, values)) setBackup(null);
  }, [liveBound, backup, initial, values]);

  // A copy of unsaved text stays in this browser until the server has it.
  useEffect(() => {
    if (!enhanced) return;
    const key = backupKey(values);
    if (dirty)
      try {
        written.current.add(key);
        window.localStorage.setItem(key, JSON.stringify({ values, at: new Date().toISOString() }));
      } catch {
        // Over the browser's storage quota (a body of megabytes): the text stays in the form.
      }
    else window.localStorage.removeItem(key);
  }, [values, dirty, enhanced]);

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
      window.localStorage.removeItem(backupKey(initial));
      setBackup(null);
    },
  };
}
