// The shapes shared by the editor forms (client) and their actions (server).
import { z } from 'zod';
import { pageFieldsSchema } from '../../lib/content/page-fields';
import { validateNewSlug } from '../../lib/http/routes';

/** The fields an editor types text into: handed back on an error page if a post fails. */
export const TYPED_FIELDS = ['title', 'summary', 'body'] as const;

export const editorFormSchema = pageFieldsSchema.extend({
  slug: z.string().superRefine((slug, ctx) => {
    const problem = validateNewSlug(slug);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
  originalSlug: z.string(),
  // The page the form was made for ('' for a new page): saved by id, whatever its slug is now.
  pageId: z
    .string()
    .transform((value) => (value === '' ? null : Number(value)))
    .pipe(z.number().int().positive().nullable()),
  version: z.coerce.number().int().min(0),
});

export type EditorFormValues = {
  slug: string;
  originalSlug: string;
  pageId: string;
  title: string;
  summary: string;
  body: string;
  version: string;
};

/** What another save put there meanwhile: shown beside the editor's own text, with a diff. */
export type Conflict = {
  title: string;
  summary: string;
  body: string;
  savedBy: string | null;
  savedAt: string;
  version: number;
  /** What happened: a save, a publish, a discard in another tab… (PageChange). */
  change: string;
};

/**
 * The editor form's id: the banner's Publish button submits it, so what is on screen is what
 * gets published. (Here, not in the editor's client module: a server component importing a
 * value from a client module gets a reference, not the value.)
 */
export const EDITOR_FORM_ID = 'page-editor';

/** What a submit of the editor form asks for: the buttons name it. */
export const EDITOR_INTENTS = ['save', 'preview', 'publish', 'take-theirs'] as const;
export type EditorIntent = (typeof EDITOR_INTENTS)[number];

export type EditorFormState = {
  values?: EditorFormValues;
  fieldErrors?: Record<string, string> | undefined;
  message?: string;
  conflict?: Conflict | undefined;
  /** The Preview button's answer without JavaScript: the page as visitors would see it. */
  previewHtml?: string;
};

/** An autosave's answer (JavaScript only): the new version, or why nothing was saved. */
export type AutosaveResult =
  | { ok: true; version: number; pageId: number; slug: string; savedAt: string }
  | {
      ok: false;
      message: string;
      conflict?: Conflict;
      fieldErrors?: Record<string, string>;
      /** The session ended: stop autosaving until the editor signs in again. */
      signedOut?: boolean;
    };

export type SettingsFormState = {
  values?: { title: string; tagline: string; footer: string; navigation: string[] };
  message?: string;
  fieldErrors?: Record<string, string>;
};

export type SignInState = { email?: string; error?: string };

export type ShareLinkState = { url?: string; expiresAt?: string; error?: string; ttl?: string };

/** The schedule form's answer: a refusal in words, with the time as typed. */
export type ScheduleState = { error?: string; publishAt?: string };

/** The upload form's answer: the image kept (and how to use it), or why not. */
/** A media library item's form after a refused alt text: the reason, and the text typed. */
export type MediaChangeState = { error?: string; alt?: string };

export type UploadState = {
  error?: string;
  alt?: string;
  uploaded?: { hash: string; alt: string; markdown: string; src: string; existing?: boolean };
};
