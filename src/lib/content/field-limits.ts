// Owns the sizes of what editors type, in one place for the server's schema, the request body
// limit and the editor in the browser (which checks before sending, so nothing it cannot save
// is ever sent and refused). Plain numbers: this module is in the browser bundle.

export const TITLE_MAX = 200;
export const SUMMARY_MAX = 500;
export const BODY_MAX = 200_000;
/** Site settings: the site's title, the tagline beside it, the footer line. */
export const SITE_TITLE_MAX = 80;
export const TAGLINE_MAX = 160;
export const FOOTER_MAX = 300;
/** A header or footer menu entry's label, and an external link's address (navigation-menus.ts). */
export const MENU_LABEL_MAX = 60;
export const MENU_URL_MAX = 2_000;
/**
 * The largest request body read at all. Far above what a form with a body of BODY_MAX
 * characters can weigh (4 bytes a character, the other fields, multipart framing), so an
 * over-long body is read and answered with a field error, its text kept; a request larger
 * than this is refused with 413 before it is read.
 */
export const REQUEST_BODY_MAX_BYTES = 4 * 1024 * 1024;

/**
 * The action that takes an image (actions.ts `uploadMedia`), from the library or the editor;
 * http/body-limit.ts gives requests that call it room for an image.
 */
export const UPLOAD_ACTION_NAME = 'uploadMedia';

/**
 * The words for a body over BODY_MAX, wherever it is refused: the editor before it sends a
 * save, the server's save, and the live preview (which renders nothing of it).
 */
export function bodyTooLongMessage(length: number, refused: 'saved' | 'previewed'): string {
  const [done, to] = refused === 'saved' ? ['Not saved', 'save'] : ['Not previewed', 'preview'];
  return `${done}: the body is ${length.toLocaleString('en')} characters, and a page holds at most ${BODY_MAX.toLocaleString('en')}. Shorten it to ${to}; your text stays here.`;
}

/**
 * A text's length as the limits count it: in code points, as the server's schema (zod) does,
 * not in UTF-16 units (`.length`), which counts an emoji twice.
 */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/** A reviewer's note when sending a page back (review before publish, issue 28). */
export const REVIEW_NOTE_MAX = 2000;
