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

// Characters that show nothing where they stand, so a title of only them looks blank (the
// hostile pass saved a site title of one Hangul filler, U+3164): soft hyphen, combining
// grapheme joiner, Hangul fillers, Mongolian vowel separator, invisible math operators.
const INVISIBLE = /\u034f|[\u00ad\u115f\u1160\u180e\u2061-\u2064\u3164\uffa0]/g;

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
    .replace(ZERO_WIDTH, '')
    .replace(INVISIBLE, '');
}

/**
 * A page's summary: prose, but shown on one line beside other text (listings, the feed, a
 * page's description), where a bidi override would turn what follows it around too; so those
 * go, as in one-line fields. Direction marks (U+200E, U+200F, U+061C) stay everywhere: they
 * are how right-to-left text is written, and they reorder nothing beyond their own word.
 */
export function cleanSummary(text: string): string {
  return cleanMultiline(text).replace(BIDI_CONTROLS, '');
}

/** A one-line text field of a schema, cleaned before its other rules (trim, limits). */
export const lineText = () => z.string().transform(cleanLine);

/** A page's summary in a schema, cleaned before its other rules. */
export const summaryText = () => z.string().transform(cleanSummary);

/** A multi-line text field of a schema, cleaned before its other rules. */
export const proseText = () => z.string().transform(cleanMultiline);
