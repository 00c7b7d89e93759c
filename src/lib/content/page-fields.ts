// Owns the rules for a page's editable fields, shared by the store, forms and actions.
import { z } from 'zod';
import { BODY_MAX, SUMMARY_MAX, TITLE_MAX } from './field-limits';

// NUL has no meaning in text, and PostgreSQL refuses it in TEXT (a 500 before, found by a
// hostile pass): it is dropped from every field, on both engines alike.
const text = () => z.string().transform((value) => value.replaceAll('\u0000', ''));

export const pageFieldsSchema = z.object({
  title: text()
    .pipe(z.string().trim())
    .pipe(
      z.string().min(1, 'Enter a title.').max(TITLE_MAX, `Use at most ${TITLE_MAX} characters.`),
    ),
  summary: text().pipe(
    z.string().trim().max(SUMMARY_MAX, `Use at most ${SUMMARY_MAX} characters.`),
  ),
  // Line endings carry no meaning in Markdown, and browsers send a textarea's as CRLF: one
  // form (LF) is stored, so a body reads back, exports and imports byte for byte.
  body: text()
    .transform((body) => body.replace(/\r\n?/g, '\n'))
    .pipe(z.string().max(BODY_MAX, `Use at most ${BODY_MAX.toLocaleString('en')} characters.`)),
});
export type PageFields = z.infer<typeof pageFieldsSchema>;
