// Owns what the editor's hooks and parts share about the text in the form: when two versions
// count as the same text, the status line's states, and the refusal of a body too long to save.
import { cleanLine, cleanMultiline, cleanSummary } from '../../../lib/content/clean-text';
import { bodyTooLongMessage } from '../../../lib/content/field-limits';
import type { EditorFormValues } from '../../../lib/editor/forms';

// "Unsaved changes" is not a state of its own: it is "saved" with text that differs since,
// worked out at render so no effect can leave it behind.
export type Status =
  | { kind: 'saved'; at: string | null }
  | { kind: 'saving' }
  | { kind: 'failed'; message: string };

/**
 * Each field as the server keeps it (page-fields.ts and forms.ts, with the same cleaning from
 * clean-text.ts; half an emoji arrives as U+FFFD): text that differs only in what saving drops
 * — a form feed pasted from a PDF, a zero-width space in a title, a trailing space — is the same
 * text. Without this the editor took the saved, cleaned text for a change and autosaved every
 * few seconds for ever (issue 26's hostile pass).
 */
const AS_KEPT = {
  title: (text: string) => cleanLine(text.toWellFormed()).trim(),
  slug: (text: string) => cleanLine(text.toWellFormed()),
  summary: (text: string) => cleanSummary(text.toWellFormed()).trim(),
  body: (text: string) => cleanMultiline(text.toWellFormed()),
} as const;

const TEXT_FIELDS = ['title', 'slug', 'summary', 'body'] as const;

/** Whether a form field is one of the text's (compared by sameText), not one of the page's others. */
export function isTextField(name: string): boolean {
  return (TEXT_FIELDS as readonly string[]).includes(name);
}

/**
 * `withBody` false: the body is left out — while it is the shared document's (decision record
 * 0051), the document saves it, and the form's own saves are about the other fields.
 */
export function sameText(a: EditorFormValues, b: EditorFormValues, withBody = true): boolean {
  // Equal strings first: the cleaning (a few passes over a 200 000-character body) only runs
  // for text that differs, not at every render.
  return (withBody ? TEXT_FIELDS : TEXT_FIELDS.filter((field) => field !== 'body')).every(
    (field) => a[field] === b[field] || AS_KEPT[field](a[field]) === AS_KEPT[field](b[field]),
  );
}

export function tooLongMessage(length: number): string {
  return bodyTooLongMessage(length, 'saved');
}
