// Owns the binding of the editor's Title and Summary inputs to the page's shared document
// (decision record 0051, issue 30), as use-live-document.ts binds the body: after the first
// sync, what was typed before it is merged in once, then each input change goes to its Y.Text
// as the smallest edit (live-document.ts editField), and another person's change comes into the
// input with the caret kept where it was (mapped through their change). The form's values keep
// following, so the SEO previews, the counts and the saves read them as before.
import { type RefObject, useEffect, useRef } from 'react';
import type { YTextEvent } from 'yjs';
import type { EditorFormValues } from '../../../lib/editor/forms';
import type { LiveDocument, LiveField } from './live-document';
import { FIELD_EDIT, firstSyncText, mapCaret } from './live-presence';

const FIELDS: readonly LiveField[] = ['title', 'summary'];

type FieldInput = HTMLInputElement | HTMLTextAreaElement;

export function useLiveFields({
  document: live,
  bound,
  initial,
  values,
  update,
  inputs,
}: {
  document: LiveDocument | null;
  /** The body is bound (use-live-document.ts): the document has synced once. */
  bound: boolean;
  /** The text the page was rendered with: the base for what was typed before the sync. */
  initial: Pick<EditorFormValues, LiveField>;
  values: EditorFormValues;
  update: (field: keyof EditorFormValues, value: string) => void;
  inputs: Record<LiveField, RefObject<FieldInput | null>>;
}): { edit: (field: LiveField, value: string) => void } {
  // Read when the binding is made and by the document's events, without remaking them.
  const latest = useRef({ initial, values, update });
  latest.current = { initial, values, update };
  const active = live !== null && bound;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the inputs are refs, read when used
  useEffect(() => {
    if (!live || !bound) return;
    const unbind = FIELDS.map((field) => {
      const text = live[field];
      // Typed before the first sync: merged in once, three ways, as the body's is.
      const remote = text.toString();
      const now = latest.current;
      const target = firstSyncText(now.values[field], now.initial[field], remote);
      live.editField(field, target);
      if (now.values[field] !== target) {
        // Shown at once too: the effect below then waits for the form's value to follow.
        const input = inputs[field].current;
        if (input) input.value = target;
        now.update(field, target);
      }
      const follow = (event: YTextEvent) => {
        if (event.transaction.origin === FIELD_EDIT) return;
        const next = text.toString();
        // Into the input at once, not at React's next render: an edit typed meanwhile is then
        // diffed against the text with this change in it (editField), never against an older.
        const input = inputs[field].current;
        if (input && input.value !== next) {
          const focused = input.ownerDocument.activeElement === input;
          const { selectionStart, selectionEnd, selectionDirection } = input;
          input.value = next;
          if (focused && selectionStart !== null && selectionEnd !== null)
            input.setSelectionRange(
              mapCaret(selectionStart, event.delta),
              mapCaret(selectionEnd, event.delta),
              selectionDirection ?? undefined,
            );
        }
        latest.current.update(field, next);
      };
      text.observe(follow);
      return () => text.unobserve(follow);
    });
    return () => {
      for (const off of unbind) off();
    };
  }, [live, bound]);

  // Set by the editor rather than typed (Take theirs, a backup put back): the document takes it
  // too, or its next draft write would bring the old text back. Only once the input shows it:
  // an input already showing another's newer change (set above, ahead of React) is left alone.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the inputs are refs, read when used
  useEffect(() => {
    if (!live || !bound) return;
    for (const field of FIELDS) {
      const value = values[field];
      if (inputs[field].current?.value === value) live.editField(field, value);
    }
  }, [live, bound, values.title, values.summary]);

  return {
    edit: (field, value) => {
      if (active) live.editField(field, value);
      update(field, value);
    },
  };
}
