// The shapes shared by the editor forms (client) and their actions (server).
import { z } from 'zod';
import { pageFieldsSchema } from '../../lib/page-fields';
import { validateNewSlug } from '../../lib/slug';

export const editorFormSchema = pageFieldsSchema.extend({
  slug: z.string().superRefine((slug, ctx) => {
    const problem = validateNewSlug(slug);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
  originalSlug: z.string(),
  version: z.coerce.number().int().min(0),
});

export type EditorFormValues = {
  slug: string;
  originalSlug: string;
  title: string;
  summary: string;
  body: string;
  version: string;
};

export type Conflict = {
  title: string;
  summary: string;
  body: string;
  savedBy: string | null;
  savedAt: string;
  version: number;
};

export type EditorFormState = {
  values?: EditorFormValues;
  fieldErrors?: Record<string, string> | undefined;
  message?: string;
  conflict?: Conflict | undefined;
};

export type SignInState = { email?: string; error?: string };

export type ShareLinkState = { url?: string; expiresAt?: string; error?: string };
