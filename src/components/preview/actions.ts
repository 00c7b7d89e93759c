'use server';
// Every editor action: parse the form with the shared schema, check who is asking and which
// page the form was made for, act, then redirect (303) on success or return what the form
// needs to show the error with the typed text kept. Origins are checked before any action runs
// (src/lib/http/middleware/same-origin.ts); expected refusals are values, never thrown as bugs.
import {
  unstable_redirect as redirect,
  unstable_rerenderRoute as rerenderRoute,
} from 'waku/router/server';
import {
  BUSY_MESSAGE,
  contentStore,
  isContentError,
  type PageView,
  UNAVAILABLE_MESSAGE,
} from '../../lib/content/content';
import { BODY_MAX } from '../../lib/content/field-limits';
import { parsePublishTime, unreadableTimeMessage } from '../../lib/content/publish-time';
import { getDatabase } from '../../lib/data/db';
import { isDatabaseBusy, isDatabaseUnavailable } from '../../lib/data/db-errors';
import { currentEditorSession, endEditorSession, signInEditor } from '../../lib/editors/session';
import { noteFormPage, requestContext, setDocumentStatus } from '../../lib/http/request-context';
import {
  isValidSlug,
  MEDIA_LIBRARY,
  previewPath,
  rewriteLinksForPreview,
  shareLinkPath,
} from '../../lib/http/routes';
import { siteOrigin } from '../../lib/http/site-url';
import { renderMarkdown } from '../../lib/markdown/markdown';
import { ALT_MAX, altProblem, mediaStore, normaliseAlt, processImage } from '../../lib/media/media';
import {
  imageMarkdown,
  mediaByHashes,
  mediaHashesIn,
  uploadTooLargeMessage,
} from '../../lib/media/media-refs';
import { badRequest } from '../../lib/observability/request-errors';
import { getEnv } from '../../lib/runtime/env';
import {
  createPreviewLink,
  DEFAULT_SHARE_DURATION,
  revokePreviewLink,
  SHARE_DURATIONS,
  type ShareDuration,
} from '../../lib/share-links/share-links';
import {
  type AutosaveResult,
  type Conflict,
  EDITOR_INTENTS,
  type EditorFormState,
  type EditorFormValues,
  type EditorIntent,
  editorFormSchema,
  type MediaChangeState,
  type ScheduleState,
  type SettingsFormState,
  type ShareLinkState,
  type SignInState,
  type UploadState,
} from './forms';

const SIGNED_OUT_MESSAGE =
  'Your session has ended. Sign in again in another tab, then save: your text is kept here.';

/** A same-site path to go back to after signing in; anything else falls back to /preview. */
function safeNext(value: FormDataEntryValue | null): string {
  const text = typeof value === 'string' ? value : '';
  // A preview address, or a page's editor: nothing else, so no sign-in leads off the site.
  return /^\/preview(?:\/[a-z0-9-]+(?:\?edit)?)?$/.test(text) ? text : '/preview';
}

/**
 * The form an action was called with. Actions are public endpoints: a forged call can pass
 * anything, or nothing, and that is a bad request (400), not a bug.
 */
function formOf(value: unknown): FormData {
  try {
    if (value instanceof FormData) return value;
  } catch {
    // A forged argument can be an object that throws when looked at (a temporary reference).
  }
  throw badRequest('This action takes a form.');
}

/** The slug a command form names; anything else is a forged form (and never a redirect). */
function slugOf(formData: FormData): string {
  const slug = text(formData, 'slug');
  if (!isValidSlug(slug)) throw badRequest('Not a page address.');
  return slug;
}

function text(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === 'string' ? value : '';
}

/** A positive integer field (an id, a version), or undefined when it is missing or junk. */
function whole(formData: FormData, name: string): number | undefined {
  const value = Number(text(formData, name));
  return Number.isSafeInteger(value) && value >= 0 && text(formData, name) !== ''
    ? value
    : undefined;
}

export async function signIn(_previous: SignInState, input: FormData): Promise<SignInState> {
  const formData = formOf(input);
  const email = text(formData, 'email').slice(0, 254);
  const password = text(formData, 'password').slice(0, 1024);
  const next = safeNext(formData.get('next'));
  const outcome = await signInEditor(email, password);
  if (!outcome.ok) {
    if (outcome.reason === 'throttled') {
      const minutes = Math.ceil(outcome.retryAfterSeconds / 60);
      return { email, error: `Too many attempts. Try again in ${minutes} minute(s).` };
    }
    if (outcome.reason === 'busy')
      return { email, error: 'Folio is busy. Nothing was checked; try again in a moment.' };
    if (outcome.reason === 'unavailable')
      return {
        email,
        error:
          'Folio cannot reach its database right now. Nothing was checked; try again in a moment.',
      };
    // The same words whether or not the email has an account.
    return { email, error: 'That email and password do not match an editor account.' };
  }
  // An absolute URL makes the browser load the page anew (with JavaScript too), so the page
  // is rendered with the new cookie rather than inside this cookie-less action request.
  redirect(new URL(next, siteOrigin()), 303);
}

export async function signOut(input: FormData): Promise<void> {
  const formData = formOf(input);
  await endEditorSession({ everywhere: formData.get('everywhere') === '1' });
  redirect(new URL('/preview', siteOrigin()), 303);
}

/**
 * A submitted form's text with the line breaks the text box had: a browser sends a textarea's
 * as CRLF, and a refusal that handed those back made the editor's text differ from what it had
 * saved for ever, so it autosaved every few seconds (hostile pass).
 */
function typed(formData: FormData, name: string): string {
  return text(formData, name).replace(/\r\n?/g, '\n');
}

function valuesFrom(formData: FormData): EditorFormValues {
  return {
    slug: text(formData, 'slug').trim(),
    originalSlug: text(formData, 'originalSlug'),
    pageId: text(formData, 'pageId'),
    title: typed(formData, 'title'),
    summary: typed(formData, 'summary'),
    body: typed(formData, 'body'),
    version: text(formData, 'version'),
  };
}

/**
 * Words for an editor when the database is locked past its timeout or out of reach (nothing
 * was changed), or null for any other error.
 */
function databaseProblem(error: unknown): string | null {
  if (isContentError(error) && (error.code === 'busy' || error.code === 'unavailable'))
    return error.message;
  if (isDatabaseBusy(error)) return BUSY_MESSAGE;
  if (isDatabaseUnavailable(error)) return UNAVAILABLE_MESSAGE;
  return null;
}

type EditorSession = NonNullable<Awaited<ReturnType<typeof currentEditorSession>>>;

/**
 * Who is asking: the editor's session, null when signed out, or — when the database is busy
 * or out of reach and cannot say — the words for that (`problem`); any other error is thrown.
 */
async function lookUpSession(): Promise<
  { session: EditorSession | null; problem?: undefined } | { problem: string }
> {
  try {
    return { session: await currentEditorSession() };
  } catch (error) {
    const problem = databaseProblem(error);
    if (problem === null) throw error;
    return { problem };
  }
}

/**
 * The signed-in editor behind a command form (no typed text to keep), or a 303: back to
 * `back` saying Folio is busy or unreachable, or to the dashboard to sign in again.
 */
async function editorOrRedirect(back: `/preview${string}`): Promise<EditorSession> {
  const asking = await lookUpSession();
  if (asking.problem !== undefined) {
    const notice = asking.problem === UNAVAILABLE_MESSAGE ? 'unavailable' : 'busy';
    redirect(`${back}${back.includes('?') ? '&' : '?'}notice=${notice}`, 303);
  }
  if (!asking.session) redirect('/preview?notice=signed-out', 303);
  return asking.session;
}

/** How a stale save names what happened to the page meanwhile (PageView.lastChange). */
const CHANGE_WORDS: Record<PageView['lastChange'], string> = {
  saved: 'saved again',
  published: 'published',
  unpublished: 'unpublished',
  discarded: 'had its draft discarded',
  renamed: 'renamed',
  restored: 'restored from its history',
};

function conflictOf(page: PageView): Conflict {
  return {
    title: page.title,
    summary: page.summary,
    body: page.bodyMarkdown,
    savedBy: page.updatedBy,
    savedAt: page.updatedAt,
    version: page.version,
    change: page.lastChange,
  };
}

/**
 * A form posted without JavaScript and refused: the page that answers it (the form, its text,
 * the reason) carries a 4xx/5xx status, as a refusal should. An action called by the page's
 * JavaScript gets its answer as data, and a 200 the router expects.
 */
function refuseForm(status: number): void {
  if (requestContext().request.headers.has('x-folio-action')) return;
  setDocumentStatus(status);
}

type SaveOutcome =
  | { saved: true; slug: string; pageId: number; version: number }
  | { saved: false; state: EditorFormState; signedOut?: boolean };

/**
 * Saves what an editor's form holds (and publishes it, when asked), checked against the
 * version the form showed. Autosaves keep the page's address: a slug being typed is not a
 * rename until the editor saves.
 */
async function saveEditorValues(
  values: EditorFormValues,
  { publish = false, keepAddress = false }: { publish?: boolean; keepAddress?: boolean } = {},
): Promise<SaveOutcome> {
  const asking = await lookUpSession();
  // Who is asking cannot be looked up: the form keeps the text and says why.
  if (asking.problem !== undefined)
    return { saved: false, state: { values, message: asking.problem } };
  const { session } = asking;
  if (!session)
    return { saved: false, signedOut: true, state: { values, message: SIGNED_OUT_MESSAGE } };
  const submitted =
    keepAddress && values.pageId !== '' ? { ...values, slug: values.originalSlug } : values;
  const parsed = editorFormSchema.safeParse(submitted);
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0])] ??= issue.message;
    return {
      saved: false,
      state: { values, fieldErrors, message: 'Check the highlighted fields.' },
    };
  }
  const input = parsed.data;
  try {
    const result = await contentStore().saveDraft(
      {
        slug: input.slug,
        pageId: input.pageId ?? undefined,
        title: input.title,
        summary: input.summary,
        body: input.body,
        expectedVersion: input.pageId === null ? null : input.version,
        editor: session.editor.email,
      },
      { publish },
    );
    if (result.ok)
      return { saved: true, slug: result.slug, pageId: result.pageId, version: result.version };
    const current = result.current;
    if (!current)
      return {
        saved: false,
        state: { values, message: 'This page was deleted meanwhile; nothing was saved.' },
      };
    // Someone renamed it: the form now names its current address, unless this editor was
    // renaming it too. Their text stays in every field.
    const renamed = current.slug !== input.originalSlug;
    const who =
      current.updatedBy === null
        ? ''
        : current.updatedBy === session.editor.email
          ? ', by you in another tab or window'
          : `, by ${current.updatedBy}`;
    return {
      saved: false,
      state: {
        values: {
          ...values,
          version: String(current.version),
          originalSlug: current.slug,
          slug: renamed && values.slug === values.originalSlug ? current.slug : values.slug,
        },
        conflict: conflictOf(current),
        message: `Not saved: this page was ${renamed ? `renamed to “${current.slug}”` : CHANGE_WORDS[current.lastChange]} since you opened it${who}. That version and yours are compared below: keep yours (save again) or take theirs.`,
      },
    };
  } catch (error) {
    const problem = databaseProblem(error);
    if (problem !== null) return { saved: false, state: { values, message: problem } };
    if (!isContentError(error)) throw error;
    if (error.code === 'not-found' && input.pageId !== null) {
      // Deleted meanwhile: the form becomes a new page's, the typed text kept in it.
      return {
        saved: false,
        state: {
          values: { ...values, pageId: '', originalSlug: '', version: '0' },
          message:
            'Not saved: this page was deleted meanwhile. Your text is kept below; “Create draft” saves it as a new page.',
        },
      };
    }
    const field =
      error.code === 'invalid-slug' || error.code === 'slug-taken'
        ? 'slug'
        : error.code === 'missing-media'
          ? 'body'
          : undefined;
    return {
      saved: false,
      state: {
        values,
        // "Publish" saves and publishes in one transaction: neither happened.
        message:
          error.code === 'missing-media'
            ? `${error.message} Nothing was saved either: Save keeps this text as a draft.`
            : error.message,
        fieldErrors: field ? { [field]: error.message } : undefined,
      },
    };
  }
}

/** The page as visitors would see these fields (rendered by the site's own Markdown code). */
async function previewHtmlOf(body: string): Promise<string> {
  const text = body.slice(0, BODY_MAX);
  const media = await mediaByHashes((await getDatabase()).query, mediaHashesIn(text));
  return rewriteLinksForPreview(await renderMarkdown(text, { media }));
}

/**
 * The editor form's action (with and without JavaScript). The button pressed names the
 * intent: save (stays in the editor), publish (what is on screen, saved first), preview (the
 * page beside the form, nothing saved), take-theirs (after a conflict: the other version in
 * the form).
 */
export async function saveDraft(
  _previous: EditorFormState,
  submitted: FormData,
): Promise<EditorFormState> {
  const formData = formOf(submitted);
  const values = valuesFrom(formData);
  const formPage = whole(formData, 'pageId');
  if (formPage !== undefined) noteFormPage(formPage);
  // No intent is Save (a browser submitting with Enter may send none); an unknown one is forged.
  const named = text(formData, 'intent') || 'save';
  if (!(EDITOR_INTENTS as readonly string[]).includes(named))
    throw badRequest('This form has no such button.');
  const intent = named as EditorIntent;
  if (intent === 'preview' || intent === 'take-theirs') {
    const asking = await lookUpSession();
    if (asking.problem !== undefined) return { values, message: asking.problem };
    if (!asking.session) return { values, message: SIGNED_OUT_MESSAGE };
    if (intent === 'preview') return { values, previewHtml: await previewHtmlOf(values.body) };
    const theirs = formPage === undefined ? null : await contentStore().getPageById(formPage);
    if (!theirs) return { values, message: 'This page was deleted meanwhile.' };
    return {
      values: {
        slug: theirs.slug,
        originalSlug: theirs.slug,
        pageId: String(theirs.id),
        title: theirs.title,
        summary: theirs.summary,
        body: theirs.bodyMarkdown,
        version: String(theirs.version),
      },
      message: 'Their version is in the form now; yours is gone from it. Save to keep it as it is.',
    };
  }
  const publish = intent === 'publish';
  const outcome = await saveEditorValues(values, { publish });
  if (!outcome.saved) {
    // A busy database is not the request's fault: that answer stays a 200 form saying so.
    const busy =
      outcome.state.message === BUSY_MESSAGE || outcome.state.message === UNAVAILABLE_MESSAGE;
    if (!busy) refuseForm(outcome.signedOut ? 401 : outcome.state.fieldErrors ? 422 : 409);
    return outcome.state;
  }
  redirect(
    `${previewPath(outcome.slug)}?${publish ? 'notice=published' : 'edit&notice=saved'}`,
    303,
  );
}

/** An autosave from the editor (JavaScript only): never renames, never navigates. */
export async function autosaveDraft(values: EditorFormValues): Promise<AutosaveResult> {
  if (typeof values !== 'object' || values === null)
    throw badRequest('This action takes the editor’s fields.');
  const clean: EditorFormValues = {
    slug: String(values.slug ?? '').trim(),
    originalSlug: String(values.originalSlug ?? ''),
    pageId: String(values.pageId ?? ''),
    title: String(values.title ?? ''),
    summary: String(values.summary ?? ''),
    body: String(values.body ?? ''),
    version: String(values.version ?? ''),
  };
  const outcome = await saveEditorValues(clean, { keepAddress: true });
  if (outcome.saved) {
    // The banner ("last saved…", the page's state) follows.
    rerenderRoute();
    return {
      ok: true,
      version: outcome.version,
      pageId: outcome.pageId,
      slug: outcome.slug,
      savedAt: new Date().toISOString(),
    };
  }
  return {
    ok: false,
    message: outcome.state.message ?? 'Not saved.',
    conflict: outcome.state.conflict,
    fieldErrors: outcome.state.fieldErrors,
    signedOut: outcome.signedOut,
  };
}

/** The live preview beside the editor (JavaScript only): the page as visitors would see it. */
export async function previewDraft(fields: {
  body: string;
}): Promise<{ html: string } | { error: string }> {
  if (typeof fields !== 'object' || fields === null || typeof fields.body !== 'string')
    throw badRequest('This action takes a body to preview.');
  const asking = await lookUpSession();
  if (asking.problem !== undefined) return { error: asking.problem };
  if (!asking.session) return { error: SIGNED_OUT_MESSAGE };
  return { html: await previewHtmlOf(fields.body) };
}

type PageCommand = 'publish' | 'unpublish' | 'discard';

const NOTICE_FOR_ERROR: Record<string, string> = {
  conflict: 'stale',
  replaced: 'replaced',
  busy: 'busy',
  unavailable: 'unavailable',
  'not-found': 'gone',
  'missing-media': 'missing-media',
};

/**
 * Back to the page's preview with a notice: where the page a form was for went away and no page
 * has its address now, to the dashboard instead, which says so (at the address, a 404 would
 * say nothing of why: hostile pass).
 */
async function backToPage(slug: string, notice: string): Promise<never> {
  if (notice === 'replaced' || notice === 'gone') {
    // A database that cannot say (busy, unreachable) leaves the answer at the page's address.
    const there = await contentStore()
      .getPage(slug, { draft: true })
      .catch(() => 'unknown' as const);
    if (there === null) redirect('/preview?notice=gone', 303);
  }
  redirect(`${previewPath(slug)}?notice=${notice}`, 303);
}

async function runPageCommand(command: PageCommand, input: unknown): Promise<void> {
  const formData = formOf(input);
  const slug = slugOf(formData);
  const session = await editorOrRedirect(previewPath(slug));
  const store = contentStore();
  // The form says which page it was made for and which version it showed: acting on another
  // page that took the slug, or on text the editor has not seen, is refused.
  const expected = {
    pageId: whole(formData, 'pageId') ?? -1,
    version: whole(formData, 'version') ?? -1,
  };
  let notice: string =
    command === 'publish' ? 'published' : command === 'unpublish' ? 'unpublished' : 'discarded';
  let wasDraftOnly = false;
  try {
    if (command === 'publish') {
      await store.publish(slug, { editor: session.editor.email, ...expected });
    } else if (command === 'unpublish') {
      await store.unpublish(slug, { editor: session.editor.email, ...expected });
    } else {
      wasDraftOnly = (await store.getPage(slug, { draft: true }))?.state === 'draft-only';
      await store.discardDraft(slug, { editor: session.editor.email, ...expected });
    }
  } catch (error) {
    if (!isContentError(error)) throw error;
    notice = NOTICE_FOR_ERROR[error.code] ?? 'refused';
  }
  if (notice === 'discarded' && wasDraftOnly) redirect('/preview?notice=deleted', 303);
  await backToPage(slug, notice);
}

export async function publishPage(formData: FormData): Promise<void> {
  await runPageCommand('publish', formData);
}

export async function unpublishPage(formData: FormData): Promise<void> {
  await runPageCommand('unpublish', formData);
}

export async function discardDraft(formData: FormData): Promise<void> {
  await runPageCommand('discard', formData);
}

/**
 * "Publish at": the instant the browser computed from the editor's zone (`publishAtUtc`), or
 * without JavaScript the typed wall-clock time read as UTC (the form's label says so).
 */
export async function schedulePublish(
  _previous: ScheduleState,
  input: FormData,
): Promise<ScheduleState> {
  const formData = formOf(input);
  const slug = slugOf(formData);
  const typed = text(formData, 'publishAt').slice(0, 100);
  const at = parsePublishTime(text(formData, 'publishAtUtc') || typed);
  if (!at) {
    refuseForm(422);
    return { error: unreadableTimeMessage(), publishAt: typed };
  }
  const asking = await lookUpSession();
  if (asking.problem !== undefined) return { error: asking.problem, publishAt: typed };
  if (!asking.session) {
    refuseForm(401);
    return { error: 'Your session has ended. Sign in again.', publishAt: typed };
  }
  try {
    await contentStore().schedulePublish(slug, at, {
      editor: asking.session.editor.email,
      pageId: whole(formData, 'pageId') ?? -1,
      onlyIfUnscheduled: true,
    });
  } catch (error) {
    if (!isContentError(error)) throw error;
    refuseForm(
      error.code === 'invalid' || error.code === 'missing-media'
        ? 422
        : error.code === 'busy' || error.code === 'unavailable'
          ? 200
          : 409,
    );
    return { error: error.message, publishAt: typed };
  }
  redirect(`${previewPath(slug)}?notice=scheduled`, 303);
}

export async function cancelScheduledPublish(input: FormData): Promise<void> {
  const formData = formOf(input);
  const slug = slugOf(formData);
  await editorOrRedirect(previewPath(slug));
  let notice = 'unscheduled';
  try {
    const cancelled = await contentStore().cancelSchedule(slug, {
      pageId: whole(formData, 'pageId') ?? -1,
    });
    // A stale tab: it was published, discarded, taken down or cancelled meanwhile.
    if (!cancelled) notice = 'not-scheduled';
  } catch (error) {
    if (!isContentError(error)) throw error;
    notice = NOTICE_FOR_ERROR[error.code] ?? 'refused';
  }
  await backToPage(slug, notice);
}

/**
 * Dismisses the notice of a schedule that came due and did not publish: the one the form was
 * shown with (`missedAt`), never a newer one the editor has not read (hostile pass).
 */
export async function dismissMissedSchedule(input: FormData): Promise<void> {
  const formData = formOf(input);
  const slug = slugOf(formData);
  await editorOrRedirect(previewPath(slug));
  let notice: string;
  try {
    const outcome = await contentStore().dismissMissedSchedule(slug, {
      pageId: whole(formData, 'pageId') ?? -1,
      missedAt: text(formData, 'missedAt').slice(0, 100),
    });
    notice = { dismissed: 'missed-dismissed', newer: 'missed-newer', nothing: 'missed-gone' }[
      outcome
    ];
  } catch (error) {
    if (!isContentError(error)) throw error;
    notice = NOTICE_FOR_ERROR[error.code] ?? 'refused';
  }
  await backToPage(slug, notice);
}

/**
 * Uploads an image (the media library's form, with or without JavaScript): the bytes decide
 * what it is; variants are made once, here; alt text is required. Answers with the Markdown
 * that shows it, or why not, keeping the alt text typed.
 */
export async function uploadMedia(_previous: UploadState, input: FormData): Promise<UploadState> {
  const formData = formOf(input);
  const alt = text(formData, 'alt').slice(0, ALT_MAX * 2);
  const file = formData.get('file');
  const asking = await lookUpSession();
  if (asking.problem !== undefined) return { error: asking.problem, alt };
  if (!asking.session) {
    refuseForm(401);
    return { error: 'Your session has ended. Sign in again.', alt };
  }
  const maxBytes = getEnv().MEDIA_MAX_MB * 1024 * 1024;
  const problem =
    !(file instanceof File) || file.size === 0
      ? 'Choose an image file to upload.'
      : file.size > maxBytes
        ? uploadTooLargeMessage(file.size, getEnv().MEDIA_MAX_MB)
        : altProblem(alt);
  if (problem || !(file instanceof File)) {
    refuseForm(problem?.includes(' MB') ? 413 : 422);
    return { error: problem ?? 'Choose an image file to upload.', alt };
  }
  try {
    const image = await processImage(new Uint8Array(await file.arrayBuffer()));
    const kept = await mediaStore().add(image, {
      alt,
      // A file part may come without a name (a hand-made request): then it is "image".
      filename: typeof file.name === 'string' ? file.name : '',
      editor: asking.session.editor.email,
    });
    rerenderRoute();
    return {
      uploaded: {
        hash: kept.hash,
        alt: kept.alt,
        src: kept.src,
        markdown: imageMarkdown(kept.hash, kept.alt),
        // The same bytes uploaded before are that image, with the alt text it was given then.
        existing: kept.alt !== normaliseAlt(alt),
      },
    };
  } catch (error) {
    if (isContentError(error)) {
      refuseForm(422);
      return { error: error.message, alt };
    }
    const busy = databaseProblem(error);
    if (busy !== null) return { error: `Nothing was uploaded: ${busy}`, alt };
    throw error;
  }
}

/**
 * The media library's per-image commands: new alt text, or delete (refused while in use). A
 * refused alt text answers with the form, the typed text and why; the rest redirect.
 */
export async function changeMedia(
  _previous: MediaChangeState,
  input: FormData,
): Promise<MediaChangeState> {
  const formData = formOf(input);
  const hash = text(formData, 'hash');
  if (!/^[0-9a-f]{32}$/.test(hash)) throw badRequest('This form names no image.');
  const deleting = text(formData, 'intent') === 'delete';
  const alt = text(formData, 'alt').slice(0, ALT_MAX * 2);
  const asking = await lookUpSession();
  if (asking.problem !== undefined) return { error: asking.problem, alt };
  if (!asking.session) {
    refuseForm(401);
    return { error: 'Your session has ended. Sign in again.', alt };
  }
  // Fixed notices, never words from the URL: a crafted link must not put text in this page.
  let notice = deleting ? 'media-deleted' : 'media-saved';
  try {
    if (deleting) await mediaStore().remove(hash);
    else await mediaStore().setAlt(hash, alt);
  } catch (error) {
    if (!isContentError(error)) {
      const busy = databaseProblem(error);
      if (busy !== null) return { error: `Nothing was changed: ${busy}`, alt };
      throw error;
    }
    if (error.code === 'not-found') notice = 'media-gone';
    else if (error.code === 'busy' || error.code === 'unavailable')
      return { error: `Nothing was changed: ${error.message}`, alt };
    else if (deleting) notice = 'media-in-use';
    else {
      refuseForm(422);
      return { error: error.message, alt };
    }
  }
  redirect(`${MEDIA_LIBRARY}&notice=${notice}`, 303);
}

function isShareDuration(value: string): value is ShareDuration {
  return Object.hasOwn(SHARE_DURATIONS, value);
}

export async function createShareLink(
  _previous: ShareLinkState,
  input: FormData,
): Promise<ShareLinkState> {
  const formData = formOf(input);
  const ttl = text(formData, 'ttl') || DEFAULT_SHARE_DURATION;
  if (!isShareDuration(ttl)) {
    refuseForm(422);
    return {
      error: 'Choose how long the link should work: 1 hour, 24 hours or 7 days.',
      ttl: DEFAULT_SHARE_DURATION,
    };
  }
  const pageId = whole(formData, 'pageId');
  let made: { slug: string; token: string; expiresAt: string } | ShareLinkState;
  try {
    made = await (async () => {
      const session = await currentEditorSession();
      if (!session) {
        refuseForm(401);
        return { error: 'Your session has ended. Sign in again.' };
      }
      const page = pageId === undefined ? null : await contentStore().getPageById(pageId);
      if (!page) {
        refuseForm(409);
        return { error: 'This page no longer exists.', ttl };
      }
      const { token, link } = await createPreviewLink(await getDatabase(), {
        pageId: page.id,
        createdBy: session.editor.email,
        ttlSeconds: SHARE_DURATIONS[ttl],
      });
      return { slug: page.slug, token, expiresAt: link.expiresAt };
    })();
  } catch (error) {
    const problem = databaseProblem(error);
    if (problem === null) throw error;
    const why =
      problem === UNAVAILABLE_MESSAGE ? 'Folio cannot reach its database' : 'Folio is busy';
    return { error: `No link was made: ${why}. Try again in a moment.`, ttl };
  }
  if (!('token' in made)) return made;
  // With JavaScript the banner's list of open links updates too.
  rerenderRoute();
  return {
    url: `${siteOrigin()}${shareLinkPath(made.slug, made.token)}`,
    expiresAt: made.expiresAt,
    ttl,
  };
}

export async function revokeShareLink(input: FormData): Promise<void> {
  const formData = formOf(input);
  const slug = slugOf(formData);
  if (!(await currentEditorSession())) redirect('/preview?notice=signed-out', 303);
  const linkId = whole(formData, 'linkId');
  const pageId = whole(formData, 'pageId');
  let notice = 'link-gone';
  try {
    if (linkId !== undefined && pageId !== undefined)
      if (await revokePreviewLink(await getDatabase(), linkId, { pageId })) notice = 'link-revoked';
  } catch (error) {
    if (isDatabaseBusy(error)) notice = 'busy';
    else if (isDatabaseUnavailable(error)) notice = 'unavailable';
    else throw error;
  }
  redirect(`${previewPath(slug)}?notice=${notice}`, 303);
}

/** Editor-only: proves that a server-side error reaches the log and Sentry with its digest. */
export async function sendServerTestError(): Promise<void> {
  if (!(await currentEditorSession())) redirect(new URL('/preview', siteOrigin()), 303);
  throw new Error('Folio test error from the server (sent on purpose from the preview)');
}

/** Makes an earlier published version the draft (from the history), if the page is as shown. */
export async function restoreRevision(input: FormData): Promise<void> {
  const formData = formOf(input);
  const slug = slugOf(formData);
  const pageId = whole(formData, 'pageId');
  const revisionId = whole(formData, 'revisionId');
  const version = whole(formData, 'version');
  if (pageId === undefined || revisionId === undefined || version === undefined)
    throw badRequest('Not a version of a page.');
  let notice = 'restored';
  let target = slug;
  try {
    const session = await currentEditorSession();
    if (!session) redirect('/preview?notice=signed-out', 303);
    const result = await contentStore().restoreRevision({
      pageId,
      revisionId,
      expectedVersion: version,
      editor: session.editor.email,
    });
    if (result.ok) {
      target = result.slug;
      // A version from before an image was deleted: say so now, not first at Publish.
      const restored = await contentStore().getPageById(pageId);
      if (restored && (await contentStore().missingMedia(restored.bodyHtml)).length > 0)
        notice = 'restored-missing-media';
    } else notice = 'stale';
  } catch (error) {
    const problem = databaseProblem(error);
    if (problem !== null) notice = problem === UNAVAILABLE_MESSAGE ? 'unavailable' : 'busy';
    else if (isContentError(error) && error.code === 'not-found') notice = 'gone';
    else throw error;
  }
  redirect(
    `${previewPath(target)}?${notice.startsWith('restored') ? 'edit&' : 'history&'}notice=${notice}`,
    303,
  );
}

/** The site's settings form (title, tagline, footer, header navigation). */
export async function saveSiteSettings(
  _previous: SettingsFormState,
  input: FormData,
): Promise<SettingsFormState> {
  const formData = formOf(input);
  const navigation = formData
    .getAll('navigation')
    .filter((value): value is string => typeof value === 'string');
  const values = {
    title: text(formData, 'title'),
    tagline: text(formData, 'tagline'),
    footer: text(formData, 'footer'),
    navigation,
  };
  // The order: each chosen page's position field (1, 2, 3…), then the list order.
  const position = (id: string) => Number(text(formData, `position-${id}`) || Number.NaN);
  const mode = text(formData, 'navigation-mode');
  if (mode !== 'all' && mode !== 'chosen') {
    refuseForm(422);
    return { values, message: 'Choose which pages the header lists.' };
  }
  if (
    mode === 'chosen' &&
    navigation.some((id) => {
      const at = position(id);
      return !Number.isInteger(at) || at < 1 || at > 99;
    })
  ) {
    refuseForm(422);
    return { values, message: 'Give each chosen page a position from 1 to 99.' };
  }
  const ordered = navigation
    .map((id, index) => ({ id: Number(id), index, at: position(id) }))
    .filter((entry) => Number.isSafeInteger(entry.id) && entry.id > 0)
    .sort((a, b) => a.at - b.at || a.index - b.index)
    .map((entry) => entry.id);
  try {
    const session = await currentEditorSession();
    if (!session) {
      refuseForm(401);
      return { values, message: 'Your session has ended. Sign in again.' };
    }
    // A page unpublished since the form was made (or an id nobody offered) is not dropped
    // silently: the header would lose links the editor thinks they chose.
    if (mode === 'chosen') {
      const published = new Set(
        (await contentStore().listAll())
          .filter((page) => page.state !== 'draft-only')
          .map((page) => page.id),
      );
      if (ordered.some((id) => !published.has(id)) || ordered.length !== navigation.length) {
        refuseForm(422);
        return {
          values,
          message: 'Some of the chosen pages are not published (any more): choose again.',
        };
      }
    }
    await contentStore().saveSiteSettings({
      title: values.title,
      tagline: values.tagline,
      footer: values.footer,
      navigation: mode === 'all' ? null : [...new Set(ordered)],
    });
  } catch (error) {
    const problem = databaseProblem(error);
    if (problem !== null) return { values, message: problem };
    if (isContentError(error) && error.code === 'invalid') {
      refuseForm(422);
      return { values, message: error.message };
    }
    throw error;
  }
  redirect('/preview?settings&notice=settings-saved', 303);
}
