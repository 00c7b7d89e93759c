// Owns autosave: the draft is saved a few seconds after typing stops, checked against the
// version the editor started from like a manual save. A conflict or an ended session stops
// it until the editor decides; a new page is created once it has a title and some text.
import { useCallback, useEffect, useRef } from 'react';
import { useRouter } from 'waku/router/client';
import { BODY_MAX, characterCount } from '../../../lib/content/field-limits';
import { mergeTexts } from '../../../lib/content/merge';
import { autosaveDraft } from '../../../lib/editor/actions/pages';
import { type AutosaveResult, CHOICES_MAX } from '../../../lib/editor/forms';
import { previewPath } from '../../../lib/http/routes';
import { tooLongMessage } from './editor-text';
import { backupKey } from './use-draft-recovery';
import type { EditorState } from './use-editor-state';

const AUTOSAVE_AFTER_MS = 3_000;

export function useAutosave(
  {
    values,
    setValues,
    setSaved,
    setStatus,
    setFieldErrors,
    setConflict,
    setMergedNote,
    autosaveOff,
    mergedBody,
    bodyIsLive,
    dirty,
  }: EditorState,
  {
    enhanced,
    pending,
    person,
    stopped = false,
  }: {
    enhanced: boolean;
    pending: boolean;
    /** Whose backup (use-draft-recovery.ts). */
    person: string;
    /** Nothing may be saved from this tab (another person signed in in its browser). */
    stopped?: boolean;
  },
) {
  // Through a ref: a new router object on a render must not restart autosave's wait.
  const navigation = useRouter();
  const router = useRef(navigation);
  router.current = navigation;
  const autosave = useCallback(async () => {
    if (autosaveOff.current) return;
    if (characterCount(values.body) > BODY_MAX) {
      setStatus({ kind: 'failed', message: tooLongMessage(characterCount(values.body)) });
      return;
    }
    // A new page is created once it has a title and some text: the title is settled by then.
    if (values.pageId === '' && (!values.title.trim() || !values.body.trim() || !values.slug))
      return;
    const sent = values;
    // Live, the body is the document's, which saves it: the server takes it from there.
    const live = bodyIsLive.current;
    setStatus({ kind: 'saving' });
    let result: AutosaveResult;
    try {
      result = await autosaveDraft(live ? { ...sent, live: '1' } : sent);
    } catch {
      setStatus({
        kind: 'failed',
        message: 'Not saved: Folio could not be reached. Your text is kept here.',
      });
      return;
    }
    if (result.ok) {
      const merged = result.merged;
      // Only the page's identity moves on: whatever was typed meanwhile stays — merged, when
      // the server merged another tab's changes in, with those (both kept where both typed).
      setValues((current) => {
        const next = {
          ...current,
          ...(merged
            ? mergeTexts(current, sent, merged, Array(CHOICES_MAX).fill('both')).text
            : {}),
          // The document's body is on screen already, newer than any the save read.
          ...(live ? { body: current.body } : {}),
          version: String(result.version),
          pageId: String(result.pageId),
          originalSlug: sent.pageId === '' ? result.slug : current.originalSlug,
        };
        if (merged && !live) mergedBody.current = next.body;
        return next;
      });
      setSaved({
        ...sent,
        ...(merged ? { title: merged.title, summary: merged.summary, body: merged.body } : {}),
        version: String(result.version),
        pageId: String(result.pageId),
      });
      setMergedNote(merged?.note);
      setStatus({ kind: 'saved', at: result.savedAt });
      setFieldErrors(undefined);
      if (sent.pageId === '') {
        window.localStorage.removeItem(backupKey(sent, person));
        // The new page is a page now: its editor's address, rendered by the server, gives it
        // its banner (Publish, Schedule, Share, History) at once, as a click on Save would
        // (issue 26). The same editor stays mounted through it (one screen, the same tree
        // below the banner): what is typed meanwhile and the focus stay; the editor adopts
        // the saved version when the new render brings it (use-editor-state.ts).
        void router.current.replace(`${previewPath(result.slug)}?edit`, { scroll: false });
      } else if (result.unscheduled) {
        // The banner says so, as after a Save without JavaScript (the same editor stays).
        void router.current.replace(
          `${previewPath(result.slug)}?edit&notice=autosaved-unscheduled`,
          { scroll: false },
        );
      }
      return;
    }
    setFieldErrors(result.fieldErrors);
    if (result.conflict || result.signedOut) {
      // Someone else's version (or no session): autosave waits for the editor to decide.
      autosaveOff.current = true;
      setConflict(result.conflict);
    }
    setStatus({ kind: 'failed', message: result.message });
  }, [
    values,
    setValues,
    setSaved,
    setStatus,
    setFieldErrors,
    setConflict,
    setMergedNote,
    autosaveOff,
    mergedBody,
    bodyIsLive,
    person,
  ]);

  // Autosave a few seconds after typing stops.
  useEffect(() => {
    if (!enhanced || !dirty || pending || stopped || autosaveOff.current) return;
    const timer = setTimeout(autosave, AUTOSAVE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [enhanced, dirty, pending, stopped, autosave, autosaveOff]);
}
