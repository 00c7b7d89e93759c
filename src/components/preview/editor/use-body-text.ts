// Owns edits made to the body other than by typing: Markdown a toolbar button puts around the
// selection, and an uploaded image's Markdown placed as a paragraph of its own. Both leave the
// caret after what they put in.
import { type Dispatch, type SetStateAction, useRef } from 'react';
import type { EditorFormValues } from '../../../lib/editor/forms';

/** Markdown a toolbar button puts around (or before) the selection. */
export type Wrap = { before: string; after: string; placeholder: string; line?: boolean };

export function useBodyText(
  setValues: Dispatch<SetStateAction<EditorFormValues>>,
  update: (field: keyof EditorFormValues, value: string) => void,
) {
  const body = useRef<HTMLTextAreaElement>(null);
  // Whether the editor has been in the text box: until then an image goes at the end, not
  // at the top where an untouched caret sits.
  const caretPlaced = useRef(false);

  /**
   * Puts an uploaded image's Markdown in the body as a paragraph of its own, after the line the
   * caret is on when it arrives (the editor may have typed elsewhere meanwhile: never inside a
   * word), or at the end when the editor has not been in the text box.
   */
  const insertImage = (markdown: string) => {
    const area = body.current;
    const caret = area && caretPlaced.current ? area.selectionEnd : Number.POSITIVE_INFINITY;
    let end = 0;
    setValues((current) => {
      const text = current.body;
      let at = Math.min(caret, text.length);
      if (at > 0 && text[at - 1] !== '\n') {
        const lineEnd = text.indexOf('\n', at);
        at = lineEnd === -1 ? text.length : lineEnd;
      }
      const before = text.slice(0, at);
      const after = text.slice(at);
      const lead =
        before === '' || before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n';
      const trail =
        after === ''
          ? '\n'
          : after.startsWith('\n\n')
            ? ''
            : after.startsWith('\n')
              ? '\n'
              : '\n\n';
      end = before.length + lead.length + markdown.length;
      return { ...current, body: `${before}${lead}${markdown}${trail}${after}` };
    });
    requestAnimationFrame(() => {
      body.current?.focus();
      body.current?.setSelectionRange(end, end);
    });
  };

  const applyWrap = (wrap: Wrap) => {
    const area = body.current;
    if (!area) return;
    const { selectionStart: start, selectionEnd: end, value } = area;
    const selected = value.slice(start, end) || wrap.placeholder;
    const lineStart = wrap.line ? value.lastIndexOf('\n', start - 1) + 1 : start;
    const before = wrap.line ? value.slice(0, lineStart) : value.slice(0, start);
    const inserted = wrap.line
      ? `${wrap.before}${value.slice(lineStart, end) || wrap.placeholder}`
      : `${wrap.before}${selected}${wrap.after}`;
    const next = `${before}${inserted}${value.slice(end)}`;
    update('body', next);
    requestAnimationFrame(() => {
      area.focus();
      const caret = before.length + inserted.length - wrap.after.length;
      area.setSelectionRange(
        caret - (value.slice(start, end) ? 0 : wrap.placeholder.length),
        caret,
      );
    });
  };

  return { body, caretPlaced, insertImage, applyWrap };
}
