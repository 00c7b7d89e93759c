// Owns what the editor's hooks and parts share about the text in the form: when two versions
// count as the same text, the status line's states, and the refusal of a body too long to save.
import { BODY_MAX } from '../../../lib/content/field-limits';
import type { EditorFormValues } from '../../../lib/editor/forms';

// "Unsaved changes" is not a state of its own: it is "saved" with text that differs since,
// worked out at render so no effect can leave it behind.
export type Status =
  | { kind: 'saved'; at: string | null }
  | { kind: 'saving' }
  | { kind: 'failed'; message: string };

const TEXT_FIELDS = ['title', 'slug', 'summary', 'body'] as const;

export function sameText(a: EditorFormValues, b: EditorFormValues): boolean {
  return TEXT_FIELDS.every((field) => a[field] === b[field]);
}

export function tooLongMessage(length: number): string {
  return `Not saved: the body is ${length.toLocaleString('en')} characters, and a page holds at most ${BODY_MAX.toLocaleString('en')}. Shorten it to save; your text stays here.`;
}
