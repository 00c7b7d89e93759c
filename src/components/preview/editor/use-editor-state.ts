// Owns the editor's form state: the text on screen, the text the server last saved, the status
// line, a conflict waiting for the editor's choice, the fields' refusals, and whether autosave
// may run. It follows what comes back from the server: a submit's answer (`formState`, also on
// the first render of a form posted without JavaScript) and a newly saved version of the page.
import { type Dispatch, type SetStateAction, useEffect, useRef, useState } from 'react';
import type {
  Conflict,
  EditorFormState,
  EditorFormValues,
  MergedNote,
} from '../../../lib/editor/forms';
import { slugFromTitle } from '../../../lib/http/routes';
import { type Status, sameText } from './editor-text';
import { reportUnsavedText } from './unsaved-text';

export type EditorState = {
  values: EditorFormValues;
  setValues: Dispatch<SetStateAction<EditorFormValues>>;
  saved: EditorFormValues;
  setSaved: Dispatch<SetStateAction<EditorFormValues>>;
  status: Status;
  setStatus: Dispatch<SetStateAction<Status>>;
  conflict: Conflict | undefined;
  setConflict: Dispatch<SetStateAction<Conflict | undefined>>;
  fieldErrors: Record<string, string> | undefined;
  setFieldErrors: Dispatch<SetStateAction<Record<string, string> | undefined>>;
  /**
   * Off while another version waits for the editor's choice (Keep mine / Take theirs) or the
   * session has ended: a save now would overwrite what the editor has not seen.
   */
  autosaveOff: { current: boolean };
  /** The body a merge of another editor's changes made (not an undo step in the editor). */
  mergedBody: { current: string | null };
  /**
   * The body is the page's shared document's (decision record 0051): the document saves it,
   * saves send `live=1`, and no answer from a save puts a body into the editor (the document
   * moved on since; its text is already there).
   */
  bodyIsLive: { current: boolean };
  /** The text differs from what the server last saved. */
  dirty: boolean;
  /** The text, or a field the state does not hold, differs from what was last sent. */
  unsaved: boolean;
  /** A field the state does not hold changed (the form's onChange), or was sent (onSubmit). */
  setFieldsChanged: Dispatch<SetStateAction<boolean>>;
  /** The last save was merged with a version saved meanwhile: the words saying so. */
  mergedNote: MergedNote | undefined;
  setMergedNote: Dispatch<SetStateAction<MergedNote | undefined>>;
  /** One field typed: the title fills the slug until the slug is typed in. */
  update: (field: keyof EditorFormValues, value: string) => void;
  touchSlug: () => void;
};

export function useEditorState({
  initial,
  savedAt,
  formState,
  liveBody = false,
  livePending = 0,
}: {
  initial: EditorFormValues;
  savedAt: string | null;
  formState: EditorFormState | undefined;
  /** The body is the shared document's (use-live-document.ts bodySource). */
  liveBody?: boolean;
  /** The document's changes from this tab not yet stored. */
  livePending?: number;
}): EditorState {
  const bodyIsLive = useRef(liveBody);
  bodyIsLive.current = liveBody;
  // When the server last had this page's text (for the status line after a refused submit).
  const lastSavedAt = useRef(savedAt);
  lastSavedAt.current = savedAt;
  // A form posted without JavaScript comes back rendered on the server with the action's
  // answer as `formState`: the first render must show it (effects never run there), or the
  // typed text, the refusal and the Preview would all be lost on the way back.
  const [values, setValues] = useState<EditorFormValues>(formState?.values ?? initial);
  const [saved, setSaved] = useState<EditorFormValues>(initial);
  const [status, setStatus] = useState<Status>(
    formState?.message
      ? { kind: 'failed', message: formState.message }
      : formState?.fieldErrors
        ? { kind: 'failed', message: 'Not saved: see the fields marked below.' }
        : { kind: 'saved', at: savedAt },
  );
  const [conflict, setConflict] = useState<Conflict | undefined>(formState?.conflict);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string> | undefined>(
    formState?.fieldErrors,
  );
  const [slugTouched, setSlugTouched] = useState(initial.pageId !== '');
  const autosaveOff = useRef(Boolean(formState?.conflict));
  const [mergedNote, setMergedNote] = useState<MergedNote | undefined>(formState?.merged);
  // The body a merge of another editor's changes made: the editor takes it in without an undo
  // step of its own (body-codemirror.ts setText).
  const mergedBody = useRef<string | null>(null);
  // The fields this state does not hold (kind, topics, authors, search and sharing) are the
  // form's own: changed since the last submit, they are unsaved too — the banner offers Publish
  // and leaving asks first, as for the text (walk-through of issue 27: a changed meta title
  // alone showed no Publish, and closing the tab lost it without a word).
  // The autosave sends the text only, so it follows `dirty`; the rest follows `unsaved`.
  const [fieldsChanged, setFieldsChanged] = useState(false);
  const dirty = !sameText(values, saved, !liveBody);
  const unsaved = dirty || fieldsChanged || (liveBody && livePending > 0);
  // The banner's Publish for a page with no draft follows it (unsaved-text.ts); a live body the
  // document changed since the page was rendered has a draft now, which the banner cannot see.
  const newDraft = unsaved || (liveBody && values.body !== saved.body);
  useEffect(() => {
    reportUnsavedText(newDraft);
    // Gone with the editor (a screen without one has no unsaved text).
    return () => reportUnsavedText(false);
  }, [newDraft]);

  // What a submit without JavaScript (or with it) came back with: the form shows it. A save
  // that succeeded redirected instead, and React leaves no state behind (undefined).
  useEffect(() => {
    if (!formState) return;
    const live = bodyIsLive.current;
    if (formState.merged && formState.values && !live) mergedBody.current = formState.values.body;
    const answered = formState.values;
    if (answered) setValues((current) => (live ? { ...answered, body: current.body } : answered));
    setConflict(formState.conflict);
    setMergedNote(formState.merged);
    // Saved merged: the merged text is what the server has now.
    if (formState.merged && formState.values) setSaved(formState.values);
    // A Save or Publish refused because the page changed meanwhile: autosave waits too, as it
    // does after its own conflict (a stale tab's autosave overwrote the other tab's draft).
    if (formState.conflict) autosaveOff.current = true;
    setFieldErrors(formState.fieldErrors);
    if (formState.merged) setStatus({ kind: 'saved', at: new Date().toISOString() });
    else if (formState.message) setStatus({ kind: 'failed', message: formState.message });
    else if (formState.fieldErrors)
      setStatus({ kind: 'failed', message: 'Not saved: see the fields marked below.' });
    else
      setStatus((current) =>
        current.kind === 'saving' ? { kind: 'saved', at: lastSavedAt.current } : current,
      );
  }, [formState]);

  // A save of ours came back as a new render of this page (the redirect after Save, or the
  // banner following an autosave): the editor stays mounted, so it adopts the saved version
  // — or the next save would conflict with itself — and keeps whatever was typed meanwhile.
  const server = useRef(initial);
  server.current = initial;
  const adopted = useRef(`${initial.pageId}:${initial.version}`);
  // biome-ignore lint/correctness/useExhaustiveDependencies: it runs when the saved version moves and reads the latest props through the ref
  useEffect(() => {
    const now = server.current;
    // Not on mount: a refusal shown at first render (no JavaScript) stays until acted on.
    if (adopted.current === `${now.pageId}:${now.version}`) return;
    adopted.current = `${now.pageId}:${now.version}`;
    setSaved(now);
    setValues((current) =>
      sameText(current, now, !bodyIsLive.current)
        ? bodyIsLive.current
          ? { ...now, body: current.body }
          : now
        : { ...current, pageId: now.pageId, version: now.version, originalSlug: now.originalSlug },
    );
    setConflict(undefined);
    autosaveOff.current = false;
    setStatus({ kind: 'saved', at: savedAt });
  }, [initial.pageId, initial.version, savedAt]);

  const update = (field: keyof EditorFormValues, value: string) =>
    setValues((current) => {
      const next = { ...current, [field]: value };
      if (field === 'title' && !slugTouched) next.slug = slugFromTitle(value);
      return next;
    });

  return {
    values,
    setValues,
    saved,
    setSaved,
    status,
    setStatus,
    conflict,
    setConflict,
    fieldErrors,
    setFieldErrors,
    autosaveOff,
    mergedBody,
    bodyIsLive,
    dirty,
    unsaved,
    setFieldsChanged,
    mergedNote,
    setMergedNote,
    update,
    touchSlug: () => setSlugTouched(true),
  };
}
