// Owns cleaning what editors type (page fields, site settings; the forms, the store and the CLI
// alike) of characters that carry no text: NUL, which PostgreSQL refuses in TEXT (a 500 there,
// and on SQLite a stored value that later broke `db copy`), the other control characters, and,
// in one-line fields (titles, the site's title, tagline and footer), the invisible characters
// that make a name read differently from what it is: bidi overrides and isolates (U+202E turns
// "txt.exe" into "exe.txt" on screen) and zero-width characters.
// Browser-safe (the editor's schemas run in both): nothing here may import server-only modules.
import { z } from 'zod';

// C0 controls but tab and line feed, DEL, C1 controls. (CR is made LF first, in multi-line text.)
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
const CONTROLS_BUT_TAB_AND_LF = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// Every control in one-line text; a tab or line break there is a space (pasted text). U+2028
// and U+2029 are text, not controls: they stay, and exports escape them (files.ts).
const LINE_BREAKS_AND_TABS = /[\t\n\r]+/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
// Bidi embeddings, overrides (U+202A–U+202E) and isolates (U+2066–U+2069).
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;
// Zero-width space, non-joiner, joiner, word joiner, BOM. A joiner between two pictographs is
// part of an emoji (👩‍💻, 👩🏽‍💻) and stays; anywhere else it is dropped with the rest.
const ZERO_WIDTH =
  /[\u200b\u200c\u2060\ufeff]|(?<!\p{Extended_Pictographic}(?:\ufe0f|\p{Emoji_Modifier})?)\u200d|\u200d(?!\p{Extended_Pictographic})/gu;

/**
 * Multi-line text (a page's body and summary): CRLF and CR become LF, and every control but
 * tab and line feed is dropped. Bidi and zero-width characters stay: a body is the editor's
 * prose (right-to-left scripts, Persian's non-joiner, emoji need them) and renders as text.
 */
export function cleanMultiline(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(CONTROLS_BUT_TAB_AND_LF, '');
}

/**
 * One-line text (titles, slugs, the site's title, tagline and footer): line breaks and tabs
 * become one space, and controls, bidi overrides and isolates, and zero-width characters are
 * dropped. Not trimmed: the schemas trim, after this, so a title of only invisibles is empty.
 */
export function cleanLine(text: string): string {
  return text
    .replace(LINE_BREAKS_AND_TABS, ' ')
    .replace(CONTROLS, '')
    .replace(BIDI_CONTROLS, '')
    .replace(ZERO_WIDTH, '');
}

/** A one-line text field of a schema, cleaned before its other rules (trim, limits). */
export const lineText = () => z.string().transform(cleanLine);

/** A multi-line text field of a schema, cleaned before its other rules. */
export const proseText = () => z.string().transform(cleanMultiline);
