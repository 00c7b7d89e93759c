// Owns the editors' forms as data: one schema per form, shared by the form component (client)
// and its action (server, src/lib/editor/actions/), and the states the actions answer with.
// Browser-safe: client components import this, so nothing here may import server-only modules.
// A schema reads a form posted as the browser sends it (a field missing or a file where text
// belongs reads as ''); a form that fails one is forged, and its action answers 400 (action.ts).
import { z } from 'zod';
import { lineText } from '../content/clean-text';
import { REVIEW_NOTE_MAX } from '../content/field-limits';
import { MERGE_CHOICES, type MergeChoice, type MergeConflict } from '../content/merge';
import { pageFieldsSchema } from '../content/page-fields';
import {
  AUTHORS_LISTED_MAX,
  AUTHORS_PER_POST_MAX,
  isPageKind,
  type PageKind,
  parseTopicNames,
} from '../content/post-fields';
import { CANONICAL_MAX, seoFieldsSchema } from '../content/seo-fields';
import { isValidSlug, slugFromTitle, validateNewSlug } from '../http/routes';

/** A text field as posted: anything but text (missing, a file, repeated) reads as ''. */
const field = z.preprocess((value) => (typeof value === 'string' ? value : ''), z.string());

/** A field a form may lack (undefined then), kept to `max` characters. */
const optionalFieldUpTo = (max: number) =>
  z.preprocess(
    (value) => (typeof value === 'string' ? value.slice(0, max) : undefined),
    z.string().optional(),
  );

/** A text field kept to `max` characters (what a refusal hands back is never a whole upload). */
const fieldUpTo = (max: number) => field.transform((value) => value.slice(0, max));

/** Digits only: what Folio writes into an id or version field (never '0x5', ' 5' or '1e3'). */
const DIGITS = /^\d+$/;

/** A positive integer field (an id, a version), or undefined when it is missing or junk. */
const whole = field.transform((value) => {
  const number = Number(value);
  return DIGITS.test(value) && Number.isSafeInteger(number) ? number : undefined;
});

/** The message of a form or call that Folio's own pages never make (answered 400). */
const FORGED = 'This form was not made by Folio.';

/** A page id as the editor sends it: digits, or '' for a page not saved yet. */
const pageIdText = (text: z.ZodString) =>
  text.refine((value) => value === '' || DIGITS.test(value), FORGED);

/** A page's version as the editor sends it: digits, always. */
const versionText = (text: z.ZodString) => text.regex(DIGITS, FORGED);

/** The slug a command form names; anything else is a forged form (and never a redirect). */
const slug = field.refine(isValidSlug, 'Not a page address.');

/** Every value a repeated field (checkboxes) sent as text, in order. */
const repeated = z.preprocess(
  (value) => (Array.isArray(value) ? value : value === undefined ? [] : [value]),
  z
    .array(z.unknown())
    .transform((values) => values.filter((v): v is string => typeof v === 'string')),
);

/**
 * The fields an editor types text into (the page editor's, the site settings'): handed back on
 * an error page if a post fails. A form with other choices says them itself (action.ts `kept`).
 */
export const TYPED_FIELDS = ['title', 'summary', 'body', 'tagline', 'footer'] as const;

const editorFormFields = pageFieldsSchema.extend({
  // A slug pasted with an invisible character (a zero-width space) is the slug without it.
  slug: lineText().superRefine((slug, ctx) => {
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
  // Post or page (radio buttons): anything else is a forged form's, read as "say nothing".
  kind: z
    .string()
    .optional()
    .transform((value): PageKind | null => (isPageKind(value) ? value : null)),
  // Topic names, comma separated: too many or too long is the field's error.
  topics: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const parsed = parseTopicNames(value ?? '');
      if ('error' in parsed) {
        ctx.addIssue({ code: 'custom', message: parsed.error });
        return z.NEVER;
      }
      return parsed.names;
    }),
  // Author addresses, space separated (the Authors checkboxes); absent keeps the page's.
  authors: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const slugs = [...new Set(value.split(' ').filter((slug) => slug !== ''))];
      if (slugs.length > AUTHORS_PER_POST_MAX) {
        ctx.addIssue({
          code: 'custom',
          message: `A post names at most ${AUTHORS_PER_POST_MAX} authors.`,
        });
        return z.NEVER;
      }
      return slugs;
    }),
  // Search and sharing (seo-fields.ts): absent (an autosave, a form from before them) keeps
  // the page's; the checkbox is 'on' when ticked, '' when the form had it unticked.
  seoTitle: seoFieldsSchema.shape.title.optional(),
  seoDescription: seoFieldsSchema.shape.description.optional(),
  seoImage: seoFieldsSchema.shape.image.optional(),
  seoCanonical: seoFieldsSchema.shape.canonical.optional(),
  seoNoindex: z
    .string()
    .optional()
    .transform((value) => (value === undefined ? undefined : value === 'on')),
});

/**
 * A new page's form with its slug left empty takes the slug its title gives, as the hint says:
 * with JavaScript the field follows the title as it is typed; without it, this does, on save
 * (issue 26). Only for a new page: an existing page's empty slug is a mistake to point out.
 */
function slugFromTitleWhenEmpty(input: unknown): unknown {
  if (typeof input !== 'object' || input === null) return input;
  const { slug, title, pageId } = input as Record<string, unknown>;
  if (pageId === '' && typeof slug === 'string' && slug.trim() === '' && typeof title === 'string')
    return { ...input, slug: slugFromTitle(title) };
  return input;
}

export const editorFormSchema = z.preprocess(slugFromTitleWhenEmpty, editorFormFields);

export type EditorFormValues = {
  slug: string;
  originalSlug: string;
  pageId: string;
  title: string;
  summary: string;
  body: string;
  version: string;
  /** 'post' or 'page'. */
  kind: string;
  /** Topic names, comma separated, as typed. */
  topics: string;
  /** The authors ticked: their addresses, space separated. */
  authors: string;
  /** Search and sharing, as typed (absent: an autosave's, which keeps the page's). */
  seoTitle?: string;
  seoDescription?: string;
  /** A library image's hash, or '' for the first image of the page. */
  seoImage?: string;
  seoCanonical?: string;
  /** 'on' when "Hide from search engines" is ticked, else ''. */
  seoNoindex?: string;
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
  /**
   * Where both changed the same lines (three-way merge against the version the form started
   * from): each asks theirs, mine or both. Their changes elsewhere are kept either way.
   */
  conflicts?: MergeConflict[];
  /** conflictsKey of `conflicts`: choices sent back apply only to the conflicts they were for. */
  key?: string;
};

/**
 * A save of a form shown a conflict: which version of theirs it saw (`seenVersion`, the
 * conflict's), and for each of the conflicts (`key`) mine, theirs or both.
 */
export type MergeAnswer = {
  seenVersion: number | null;
  key: string;
  choices: (MergeChoice | undefined)[];
};

/** A form's merge answer, every field as posted (read by mergeAnswerOf). */
export const mergeAnswerSchema = z
  .object({ seenVersion: fieldUpTo(20), mergeKey: fieldUpTo(100) })
  .catchall(z.unknown());

/** Conflicts a form may answer (more are answered "mine", the text in the form). */
export const CHOICES_MAX = 500;

/** The merge answer a form posts: `seenVersion`, `mergeKey` and `choice-<n>` fields. */
export function mergeAnswerOf(input: Record<string, unknown>): MergeAnswer {
  const text = (name: string) => (typeof input[name] === 'string' ? (input[name] as string) : '');
  const seen = text('seenVersion');
  const choices: (MergeChoice | undefined)[] = [];
  for (let index = 0; index < CHOICES_MAX; index += 1) {
    const value = text(`choice-${index}`);
    if (value === '' && !(`choice-${index}` in input)) break;
    choices.push(
      (MERGE_CHOICES as readonly string[]).includes(value) ? (value as MergeChoice) : undefined,
    );
  }
  return {
    seenVersion: DIGITS.test(seen) && Number.isSafeInteger(Number(seen)) ? Number(seen) : null,
    key: text('mergeKey').slice(0, 100),
    choices,
  };
}

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
  /** Saved, merged with a version saved meanwhile: says with whose, and when. */
  merged?: MergedNote;
};

/**
 * What a save merged with (issue 26): when the other version was saved (shown in the editor's
 * time zone, merged-note.tsx), by whom in words (" by you in another tab or window", " by
 * ana@example.com" or nothing), and whether a Publish was held back to let the text be checked.
 */
export type MergedNote = { at: string; who: string; publishHeld: boolean };

/** An autosave's answer (JavaScript only): the new version, or why nothing was saved. */
export type AutosaveResult =
  | {
      ok: true;
      version: number;
      pageId: number;
      slug: string;
      savedAt: string;
      /** Merged with a version saved meanwhile: the text saved, and the words saying so. */
      merged?: { note: MergedNote; title: string; summary: string; body: string };
      /** The save cancelled a scheduled publish (a Contributor's edit): it needs review again. */
      unscheduled?: true;
    }
  | {
      ok: false;
      message: string;
      conflict?: Conflict;
      fieldErrors?: Record<string, string>;
      /** The session ended: stop autosaving until the editor signs in again. */
      signedOut?: boolean;
    };

export type SettingsFormState = {
  values?: {
    title: string;
    tagline: string;
    footer: string;
    /** As typed: refused ones come back to be corrected (issue 27). */
    language?: string;
    accent?: string;
    socialImage?: string;
    favicon?: string;
    homeShows?: string;
  };
  message?: string;
  /**
   * Refused as stale: the settings as they are now, shown beside the typed values, and their
   * version, which the form carries from then on (saving again means "mine over those").
   */
  current?: { title: string; tagline: string; footer: string; version: string };
  fieldErrors?: Record<string, string>;
};

export type SignInState = { email?: string; error?: string };

export type ShareLinkState = { url?: string; expiresAt?: string; error?: string; ttl?: string };

/** The schedule form's answer: a refusal in words, with the time as typed. */
export type ScheduleState = { error?: string; publishAt?: string };

/** A media library item's form after a refused alt text: the reason, and the text typed. */
export type MediaChangeState = { error?: string; alt?: string };

/** The redirect form's answer: what was typed, and why it was refused (and which field). */
export type RedirectFormState = {
  error?: string;
  field?: 'from' | 'to';
  values?: { from: string; to: string; status: string };
};

/** The upload form's answer: the image kept (and how to use it), or why not. */
export type UploadState = {
  error?: string;
  alt?: string;
  uploaded?: { hash: string; alt: string; markdown: string; src: string; existing?: boolean };
};

// --- One schema per form --------------------------------------------------------------------

/** Sign-in (sign-in-form.tsx): `next` is checked by the action (a same-site path only). */
export const signInFormSchema = z.object({
  email: fieldUpTo(254),
  password: fieldUpTo(1024),
  next: field,
});

/** Sign out (the preview layout's button): here or on every device, and the links made. */
export const signOutFormSchema = z.object({
  everywhere: field.transform((value) => value === '1'),
  // A checkbox: absent when unticked. Read only with `everywhere`.
  revokeLinks: field.transform((value) => value === '1'),
});

/** The editor form's fields (page-editor.tsx) as typed, and the button pressed. */
export const editorSubmitSchema = z.object({
  slug: field.transform((value) => value.trim()),
  originalSlug: field,
  // Hidden fields Folio fills in: junk there is a forged form (400), not a field to correct.
  pageId: field.pipe(pageIdText(z.string())),
  // A browser sends a textarea's line breaks as CRLF; a refusal that handed those back made the
  // editor's text differ from what it had saved for ever, so it autosaved every few seconds.
  title: field.transform(lineBreaks),
  summary: field.transform(lineBreaks),
  body: field.transform(lineBreaks),
  version: field.pipe(versionText(z.string())),
  kind: fieldUpTo(10),
  // Longer than any valid list of topics can be: what a refusal hands back stays small.
  topics: fieldUpTo(5_000),
  // The Authors checkboxes: one value a ticked author, after an empty one that says the form
  // had the control (nothing ticked is then "no authors", not "keep them").
  authors: z
    .union([z.string().max(200), z.array(z.string().max(200)).max(AUTHORS_LISTED_MAX + 1)])
    .optional()
    .transform((value) =>
      value === undefined
        ? undefined
        : [value]
            .flat()
            .filter((slug) => slug !== '')
            .join(' '),
    ),
  // Search and sharing: absent only from a form without the section (kept as they are).
  seoTitle: optionalFieldUpTo(2_000).transform((value) => value && lineBreaks(value)),
  seoDescription: optionalFieldUpTo(3_000).transform((value) => value && lineBreaks(value)),
  seoImage: optionalFieldUpTo(100),
  seoCanonical: optionalFieldUpTo(CANONICAL_MAX + 100),
  // A checkbox, sent only when ticked: read beside seoTitle, which every such form sends.
  seoNoindex: optionalFieldUpTo(10),
  // '1' from an editor bound to the page's shared document: the body is the document's
  // (save-page.ts liveBodyOf, decision record 0051). Absent: the form's body, as ever.
  live: optionalFieldUpTo(1).transform((value) => value === '1'),
  // No intent is Save (a browser submitting with Enter may send none); an unknown one is forged.
  intent: field
    .transform((value) => value || 'save')
    .refine(
      (value): value is EditorIntent => (EDITOR_INTENTS as readonly string[]).includes(value),
      'This form has no such button.',
    ),
});

function lineBreaks(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/**
 * An autosave's fields (the editor's JavaScript calls it with its form's values, not a form):
 * each one text, as the editor holds it. Anything else — an object with its own toString, a
 * list, a temporary reference — is a forged call (400), never converted: String() on it could
 * throw, or save ['a', 'b'] as 'a,b'.
 */
export const autosaveSchema = z.object({
  slug: z.string().transform((value) => value.trim()),
  originalSlug: z.string(),
  pageId: pageIdText(z.string()),
  title: z.string(),
  summary: z.string(),
  body: z.string(),
  version: versionText(z.string()),
  // Sent, not saved: the kind, the topics and the authors are saved by Save and Publish (save-page.ts).
  kind: z.string().max(10).default(''),
  topics: z.string().max(5_000).default(''),
  authors: z.string().max(20_000).default(''),
  // As the form's hidden field (editorSubmitSchema).
  live: z
    .string()
    .max(1)
    .optional()
    .transform((value) => value === '1'),
});

/** The live preview's call: the body as typed, and the ids of the blocks the pane shows. */
export const previewDraftSchema = z.object({
  body: z.string('This action takes a body to preview.'),
  // A 200 000-character body has at most 100 000 blocks (a line and a blank line each).
  have: z.array(z.string().max(16)).max(100_000).default([]),
});

/**
 * The live preview's answer: the page's blocks in order by id (a hash of the block's HTML),
 * and the HTML of each block the call did not say it has.
 */
export type LivePreview = { ids: string[]; html: Record<string, string> };

/** A live preview refused: busy (asked again a moment later) or a body too long to render. */
export type LivePreviewRefused = { error: string; tooLong?: true };

/** Publish, unpublish, discard (the banner, the confirmation page): the page and version shown. */
export const pageCommandSchema = z.object({ slug, pageId: whole, version: whole });

/** Restore as draft (the history): every id is required. */
const versionPart = whole.pipe(z.number('Not a version of a page.'));
export const restoreRevisionSchema = z.object({
  slug,
  pageId: versionPart,
  revisionId: versionPart,
  version: versionPart,
});

/** Restore a saved checkpoint as the draft (the history): every id is required. */
export const restoreCheckpointSchema = z.object({
  slug,
  pageId: versionPart,
  checkpointId: versionPart,
  version: versionPart,
});

/**
 * "Publish at" (schedule-form.tsx): the instant the browser computed from the editor's zone
 * (`publishAtUtc`), or without JavaScript the typed wall-clock time, read as UTC.
 */
export const scheduleFormSchema = z.object({
  slug,
  pageId: whole,
  /** The page's version the form was shown with: a draft changed since is not scheduled. */
  version: whole,
  publishAt: fieldUpTo(100),
  publishAtUtc: field,
});

/** Cancel schedule (the banner). */
export const cancelScheduleSchema = z.object({ slug, pageId: whole });

/** Dismiss a missed schedule's notice: the one the form was shown with. */
export const dismissMissedSchema = z.object({ slug, pageId: whole, missedAt: fieldUpTo(100) });

/** Create share link (share-link-form.tsx): how long, for which page; `ttl` is checked after. */
export const shareLinkFormSchema = z.object({ ttl: field, pageId: whole, slug });

/** Revoke a share link (the banner's list). */
export const revokeShareLinkSchema = z.object({ slug, linkId: whole, pageId: whole });

/** Upload (upload-form.tsx, editor-image-upload.tsx): the file is checked by the action. */
export const uploadFormSchema = z.object({ alt: field, file: z.unknown() });

/** A media library item's form (media-item-form.tsx): new alt text, or delete. */
/** A topic's form on the topics screen (topic-form.tsx): the rules are the store's. */
export const topicFormSchema = z.object({
  id: whole.refine((id) => id !== undefined && id > 0, 'This form names no topic.'),
  name: fieldUpTo(1_000),
  slug: fieldUpTo(1_000),
  intro: fieldUpTo(40_000),
  // The topic's last change when the screen was made: always written by the screen, so a form
  // without it was not made by Folio and would skip the stale-tab check (hostile pass 27).
  updated_at: fieldUpTo(100).refine((value) => value !== '', 'This form names no version.'),
});

/** The topic form's answer: why nothing was saved, with what was typed. */
export type TopicFormState = {
  error?: string;
  values?: { name: string; slug: string; intro: string };
};

/** An editor's redirect (redirect-form.tsx): where from, where to, permanent or not. */
export const redirectFormSchema = z.object({
  from: fieldUpTo(2_000),
  to: fieldUpTo(4_000),
  status: field,
});

/** The editor's author profile (author-profile-form.tsx). */
export const authorProfileSchema = z.object({
  name: fieldUpTo(2_000),
  slug: fieldUpTo(2_000),
  bio: fieldUpTo(20_000),
  photo: fieldUpTo(2_000),
  links: fieldUpTo(20_000),
  // The profile's last change when the form was made ('' for none yet): a save from an older
  // form is refused instead of undoing another tab's.
  updated_at: fieldUpTo(100),
});

export type AuthorProfileValues = {
  name: string;
  slug: string;
  bio: string;
  photo: string;
  links: string;
};

/** The profile form's answer: what was typed and why it was not saved. */
export type AuthorProfileState = { error?: string; values?: AuthorProfileValues };

/** Removing one redirect (the redirects screen's rows). */
export const redirectRemoveSchema = z.object({ from: fieldUpTo(2_000) });

export const mediaChangeSchema = z.object({
  hash: field.refine((value) => /^[0-9a-f]{32}$/.test(value), 'This form names no image.'),
  intent: field,
  alt: field,
});

/**
 * Site settings (site-settings-form.tsx). The menus have their own screen and form (below): a
 * field this form no longer has (a tab opened before) is ignored, never a forged form.
 */
export const siteSettingsSchema = z
  .object({
    title: field,
    tagline: field,
    footer: field,
    // Absent (a form from before these fields) is undefined: the stored value stays.
    language: optionalFieldUpTo(100),
    accent: optionalFieldUpTo(100),
    social_image: optionalFieldUpTo(200),
    favicon: optionalFieldUpTo(200),
    /** What `/` shows: 'page' or 'posts' (anything else keeps what is saved). */
    homeShows: field,
    /** settingsVersion of the settings the form was made from (a stale form is refused). */
    settings_version: field,
  })
  .catchall(z.unknown());

/** More entries than both menus hold (with room for a few being added): not Folio's form. */
export const MENU_ENTRIES_POSTED_MAX = 60;

/**
 * The menus screen (navigation-menus-form.tsx): each entry is five fields of the same names,
 * in document order — its menu, its kind, its page (or ''), its label and its address (or '')
 * — so the order of the fields is the menus' order. `intent` is the button pressed: 'save',
 * 'find', or a change made without JavaScript (`up:3`, `down:3`, `remove:3`, `add-link:footer`,
 * `add-page:header:42`), which comes back changed and unsaved, as a search does.
 */
export const menusFormSchema = z
  .object({
    menu: repeated,
    kind: repeated,
    page: repeated,
    label: repeated,
    url: repeated,
    settings_version: field,
    intent: fieldUpTo(60),
    find: fieldUpTo(100),
  })
  .refine(
    (form) =>
      [form.kind, form.page, form.label, form.url].every(
        (values) => values.length === form.menu.length,
      ) &&
      form.menu.length <= MENU_ENTRIES_POSTED_MAX &&
      form.menu.every((menu) => menu === 'header' || menu === 'footer') &&
      form.kind.every((kind) => kind === 'page' || kind === 'link') &&
      form.page.every((page) => page === '' || DIGITS.test(page)),
    FORGED,
  );

/** One menu entry as the menus form shows and posts it. */
export type MenuFormEntry = {
  menu: 'header' | 'footer';
  kind: 'page' | 'link';
  /** The page's id (a page entry), else null. */
  page: number | null;
  /** As typed: a page's empty label is its title. */
  label: string;
  url: string;
  /** A page entry's page as it is now: its title and address, or null when it is not published. */
  target?: { title: string; slug: string } | null;
};

export type MenusFormState = {
  entries?: MenuFormEntry[];
  /** A refusal, in words (role="alert"). */
  message?: string;
  /** What a change did, for the live region ("About moved to 2 of 4 in the header."). */
  announce?: string;
  /** The page search: what was typed and what it found. */
  find?: string;
  found?: { id: number; slug: string; title: string }[];
  /** The settings version the form carries from now on (a stale form is refused). */
  version?: string;
  /** Which answer this is: the entries list is remade from each (its typed labels included). */
  round?: string;
  /** The button to focus after a change made without JavaScript (`up:2`…). */
  focus?: string;
};

// ---- People (issue 28: helper "people") ----

/** Inviting someone (/preview?people): their email and the role offered. */
export const invitePersonSchema = z.object({ email: fieldUpTo(300), role: fieldUpTo(30) });

/** The invite form's answer: the link to copy (shown once), or why not, with what was typed. */
export type InviteState = {
  error?: string;
  values?: { email: string; role: string };
  invited?: {
    email: string;
    role: string;
    link: string;
    expiresAt: string;
    /** Absent without SMTP_URL; else whether the mail server took it, or why not (0043). */
    emailed?: { sent: true } | { sent: false; reason: string };
  };
};

/** A change to one person: who (id), at which version of them the screen was drawn. */
export const personChangeSchema = z.object({
  person: whole.refine((value) => value !== undefined, FORGED),
  version: whole,
  /** The role chosen (the role form only). */
  role: fieldUpTo(30),
  /** 'suspend' or 'restore' (the suspension form only). */
  intent: fieldUpTo(30),
});

/** Revoking a pending invitation. */
export const invitationRevokeSchema = z.object({
  invitation: whole.refine((value) => value !== undefined, FORGED),
});

/** A People or Sessions form's answer when it did not run: why, in words. */
export type PeopleFormState = { error?: string };

/** Accepting an invitation (/preview?invite=…): the link's token and the chosen password. */
export const acceptInvitationSchema = z.object({
  token: fieldUpTo(100),
  password: fieldUpTo(2_000),
});

export type AcceptInvitationState = { error?: string };

/** Ending one's own sessions (/preview?sessions): the session's key, or all but this one. */
export const endSessionsSchema = z.object({
  session: field.refine((value) => /^[0-9a-f]{64}$/.test(value), FORGED),
  all: field,
});

/** Submit for review (the banner): the page and the version of its draft the writer saw. */
export const submitReviewSchema = z.object({ slug, pageId: versionPart, version: versionPart });

/**
 * Send back with a note (the review screen): the page and the version the reviewer read. The
 * note is read beyond its limit, so a refusal says how long it is and hands it back to shorten.
 */
export const sendBackSchema = z.object({
  slug,
  pageId: versionPart,
  version: versionPart,
  note: fieldUpTo(REVIEW_NOTE_MAX * 4),
});

/** The send-back form's answer: why it was refused, and the note as typed. */
export type SendBackState = { error?: string; note?: string };

// --- Stronger sign-in (issue 28, helper "security"): passkeys, the authenticator app --------

/** The sign-in's second step: a code from the app, or a recovery code. */
export const secondStepFormSchema = z.object({ code: fieldUpTo(40) });
export type SecondStepState = { error?: string };

const base64url = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]*$/);
/**
 * A passkey's answer as @simplewebauthn/browser sends it (registration or sign-in): its shape
 * only; the server's verification reads the rest, so a forged one is refused there in words.
 */
export const passkeyAnswerSchema = z.object({
  id: base64url.min(1).max(1024),
  rawId: base64url.min(1).max(1024),
  type: z.literal('public-key'),
  authenticatorAttachment: z.string().max(40).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()),
  response: z.object({
    clientDataJSON: base64url,
    authenticatorData: base64url.optional(),
    signature: base64url.optional(),
    userHandle: base64url.optional(),
    attestationObject: base64url.optional(),
    publicKey: base64url.optional(),
    publicKeyAlgorithm: z.number().optional(),
    transports: z.array(z.string().max(40)).max(10).optional(),
  }),
});
export const passkeySignInCallSchema = z.object({
  answer: passkeyAnswerSchema,
  next: z.string().max(300),
});
export const addPasskeyCallSchema = z.object({
  answer: passkeyAnswerSchema,
  name: z.string().max(200),
});
/** What a passkey call answers: the refusal in words, or where to go now. */
export type PasskeyCallState = { error?: string; next?: string };

/** A passkey's rename and remove buttons (the security screen). */
export const passkeyFormSchema = z.object({ id: fieldUpTo(1024), name: fieldUpTo(200) });

/**
 * Confirming the authenticator app (`intent` 'confirm', with the app's code), or asking for new
 * recovery codes ('renew'): one form, so its answer — the codes, shown once — survives the
 * screen changing under it from "set up" to "on".
 */
/** "Confirm it is you" on the security screen: the password, typed again. */
export const confirmIdentityFormSchema = z.object({ password: fieldUpTo(1024) });
export type ConfirmIdentityState = { error?: string };

export const totpCodeFormSchema = z.object({ code: fieldUpTo(40), intent: fieldUpTo(20) });
export type TotpCodesState = { error?: string; recoveryCodes?: string[] };

/** The site's rule: the least role that must have a second factor ('' for nobody). */
export const secondFactorRuleFormSchema = z.object({ least: fieldUpTo(40) });

/** The webhooks screen's new endpoint: its URL and the events ticked (one, several or none). */
export const webhookAddSchema = z.object({
  url: fieldUpTo(2_100),
  events: z.preprocess(
    (value) => (Array.isArray(value) ? value : value === undefined ? [] : [value]),
    z.array(field).max(20, FORGED),
  ),
});

/** A webhook's one-button forms: turn off or on, remove, a new secret. */
export const webhookChangeSchema = z.object({
  webhook: whole.refine((value) => value !== undefined, FORGED),
  intent: fieldUpTo(30),
});

export const webhookRedeliverSchema = z.object({
  delivery: whole.refine((value) => value !== undefined, FORGED),
});

/** The webhooks screen's answers: why not (what was typed kept), or a secret shown once. */
export type WebhookFormState = {
  error?: string;
  values?: { url: string; events: string[] };
  /** A new endpoint or a new secret: shown this once. */
  secret?: { webhook: number; url: string; secret: string };
};

/** A new API key (api-keys.tsx): its name. */
export const apiKeyCreateSchema = z.object({ name: fieldUpTo(1_000) });
/** Revoking an API key (its row's button): the key's id. */
export const apiKeyRevokeSchema = z.object({
  key: field.refine((value) => /^\d{1,15}$/.test(value), 'This form names no key.'),
});

/**
 * The API key form's answer: the key just made (shown this once, never again), or what was
 * typed and why no key was made.
 */
export type ApiKeyFormState = {
  error?: string;
  values?: { name: string };
  made?: { key: string; name: string; prefix: string };
};
