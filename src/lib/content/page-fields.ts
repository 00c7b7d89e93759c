// Owns the rules for a page's editable fields, shared by the store, forms and actions.
import { z } from 'zod';
import { lineText, proseText, summaryText } from './clean-text';
import { BODY_MAX, SUMMARY_MAX, TITLE_MAX } from './field-limits';

// Characters that carry no text are dropped before any other rule (clean-text.ts): a title is
// one line, a summary and a body are prose.
export const pageFieldsSchema = z.object({
  title: lineText()
    .pipe(z.string().trim())
    .pipe(
      z.string().min(1, 'Enter a title.').max(TITLE_MAX, `Use at most ${TITLE_MAX} characters.`),
    ),
  summary: summaryText().pipe(
    z.string().trim().max(SUMMARY_MAX, `Use at most ${SUMMARY_MAX} characters.`),
  ),
  // Line endings carry no meaning in Markdown, and browsers send a textarea's as CRLF: one
  // form (LF) is stored (cleanMultiline), so a body reads back, exports and imports byte for byte.
  body: proseText().pipe(
    z.string().max(BODY_MAX, `Use at most ${BODY_MAX.toLocaleString('en')} characters.`),
  ),
});
export type PageFields = z.infer<typeof pageFieldsSchema>;
