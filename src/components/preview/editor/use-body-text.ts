// Owns edits made to the body other than by typing: Markdown a toolbar button (or Ctrl/Cmd+B,
// I) puts around the selection, a link from the link dialog, and an uploaded image's Markdown
// placed as a paragraph of its own (markdown-edits.ts says what each puts where). In the
// CodeMirror editor each is one transaction, so Undo takes back exactly it; in the plain text
// box (before the editor has loaded) it goes through the form's state.
import { type RefObject, useRef } from 'react';
import type { EditorFormValues } from '../../../lib/editor/forms';
import type { BodyEditor } from './body-codemirror';
import {
  type Edit,
  imageEdit,
  LINK_PLACEHOLDER,
  linkEdit,
  type Wrap,
  wrapEdit,
} from './markdown-edits';

export type { Wrap };

export function useBodyText(
  update: (field: keyof EditorFormValues, value: string) => void,
  /** The CodeMirror editor once loaded (the page makes the ref: the live binding uses it too). */
  editor: RefObject<BodyEditor | null>,
) {
  const body = useRef<HTMLTextAreaElement>(null);
  // Whether the editor has been in the text box: until then an image goes at the end, not
  // at the top where an untouched caret sits.
  const caretPlaced = useRef(false);

  const apply = (make: (text: string, from: number, to: number) => Edit, userEvent: string) => {
    const view = editor.current;
    if (view) {
      const { from, to } = view.selection();
      view.apply(make(view.text(), from, to), userEvent);
      return;
    }
    const area = body.current;
    if (!area) return;
    const edit = make(area.value, area.selectionStart, area.selectionEnd);
    update('body', `${area.value.slice(0, edit.from)}${edit.insert}${area.value.slice(edit.to)}`);
    requestAnimationFrame(() => {
      area.focus();
      area.setSelectionRange(Math.min(edit.anchor, edit.head), Math.max(edit.anchor, edit.head));
    });
  };

  /** An uploaded image, after the line the caret is on when it arrives (or at the end). */
  const insertImage = (markdown: string) =>
    apply(
      (text, _from, to) => imageEdit(text, caretPlaced.current ? to : null, markdown),
      'input.image',
    );

  const applyWrap = (wrap: Wrap) =>
    apply((text, from, to) => wrapEdit(text, from, to, wrap), 'input.format');

  /** A link over the selection; with none, `title` (or a placeholder to type over) as its text. */
  const insertLink = (url: string, title?: string) =>
    apply(
      (text, from, to) => linkEdit(text, from, to, url, title || LINK_PLACEHOLDER),
      'input.link',
    );

  /** The selected text (the link dialog says what it will link). */
  const selectedText = () => {
    const view = editor.current;
    if (view) {
      const { from, to } = view.selection();
      return view.text().slice(from, to);
    }
    const area = body.current;
    return area ? area.value.slice(area.selectionStart, area.selectionEnd) : '';
  };

  const focus = () => (editor.current ? editor.current.focus() : body.current?.focus());

  return { body, editor, caretPlaced, insertImage, applyWrap, insertLink, selectedText, focus };
}
