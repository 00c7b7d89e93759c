// Owns the rules for a page's editable fields, shared by the store, forms and actions.
import { z } from 'zod';

export const pageFieldsSchema = z.object({
  title: z.string().trim().min(1, 'Enter a title.').max(200, 'Use at most 200 characters.'),
  summary: z.string().trim().max(500, 'Use at most 500 characters.'),
  body: z.string().max(200_000, 'Use at most 200 000 characters.'),
});
export type PageFields = z.infer<typeof pageFieldsSchema>;
