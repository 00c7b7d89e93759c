'use server';
// Owns the page actions: the editor form (Save, Publish, Preview, take theirs), its autosave and
// live preview, the banner's publish/unpublish/discard, and Restore as draft from the history.
// Each is its domain call inside the action wrapper (../action.ts), which reads the form, asks
// the guard, and answers a busy database or an ended session with the typed text kept.
import { unstable_redirect as redirect } from 'waku/router/server';
import { draftsWrittenHere, textChangedHere } from '../../coedit/documents';
import { contentStore } from '../../content/content';
import { BODY_MAX, bodyTooLongMessage, characterCount } from '../../content/field-limits';
import { can } from '../../editors/permissions';
import { noteFormPage } from '../../http/request-context';
import { previewPath } from '../../http/routes';
import { rerenderActionRoute } from '../../waku/rerender';
import { editorCall, editorCommand, editorForm, readCall, readForm, refuseForm } from '../action';
import {
  type AutosaveResult,
  autosaveSchema,
  type EditorFormState,
  type EditorFormValues,
  editorSubmitSchema,
  type LivePreview,
  type LivePreviewRefused,
  mergeAnswerOf,
  mergeAnswerSchema,
  pageCommandSchema,
  previewDraftSchema,
  restoreCheckpointSchema,
  restoreRevisionSchema,
} from '../forms';
import { type Asked, requirePermission } from '../guard';
import { backToPage } from '../landing';
import { livePreviewWithListings, withListings } from '../live-listings';
import { inPreviewSlot, PREVIEWS_BUSY_MESSAGE } from '../preview-slots';
import {
  changeCancelsSchedule,
  editorValuesOf,
  livePreviewOf,
  previewHtmlOf,
  saveEditorValues,
} from '../save-page';

/**
 * What saving the editor's fields asks: to edit the page the form names, or to make a new one
 * (the form's page id is empty), to change its address when the slug differs from the one the
 * form opened with (a published page's address is the publisher's to change), and to publish
 * it too when that is the button pressed.
 */
function savingAsks(pageId: string, publish: boolean, renames = false): Asked[] {
  const id = Number(pageId);
  const page = pageId !== '' && Number.isSafeInteger(id) ? id : undefined;
  const asks: Asked[] = [
    page === undefined ? { action: 'page.create' } : { action: 'page.edit', page },
  ];
  if (renames && page !== undefined) asks.push({ action: 'page.rename', page });
  if (publish) asks.push({ action: 'page.publish', page });
  return asks;
}

/**
 * The editor form's action (with and without JavaScript). The button pressed names the
 * intent: save (stays in the editor), publish (what is on screen, saved first), preview (the
 * page beside the form, nothing saved), take-theirs (after a conflict: the other version in
 * the form).
 */
export const saveDraft = editorForm({
  read: (input) => {
    const { intent, live, ...values } = readForm(editorSubmitSchema, input);
    const formPage = Number(values.pageId);
    if (values.pageId !== '' && Number.isSafeInteger(formPage) && formPage >= 0)
      noteFormPage(formPage);
    // After a conflict: the version of theirs the form showed, and a choice per conflict.
    const answer = mergeAnswerOf(readForm(mergeAnswerSchema, input));
    return { intent, values: values as EditorFormValues, answer, live };
  },
  // A preview or taking theirs writes nothing: only a save or a publish renames.
  may: ({ intent, values }) =>
    savingAsks(
      values.pageId,
      intent === 'publish',
      (intent === 'save' || intent === 'publish') && values.slug !== values.originalSlug,
    ),
  refused: ({ values }, { message }): EditorFormState => ({ values, message }),
  run: async ({ intent, values, answer, live }, editor): Promise<EditorFormState> => {
    if (intent === 'preview') {
      const length = characterCount(values.body);
      if (length <= BODY_MAX)
        return { values, previewHtml: await withListings(await previewHtmlOf(values.body)) };
      refuseForm(422);
      const message = bodyTooLongMessage(length, 'previewed');
      return { values, message, fieldErrors: { body: message } };
    }
    if (intent === 'take-theirs') {
      const formPage = Number(values.pageId);
      const theirs =
        values.pageId === '' || !Number.isSafeInteger(formPage)
          ? null
          : await contentStore().getPageById(formPage);
      if (!theirs) return { values, message: 'This page was deleted meanwhile.' };
      return {
        values: await editorValuesOf(theirs),
        message:
          'Their version is in the form now; yours is gone from it. Save to keep it as it is.',
      };
    }
    const publish = intent === 'publish';
    const outcome = await saveEditorValues(values, editor, { publish, answer, live });
    if (!outcome.saved) {
      // Refused by the fields or by the page's version (a busy database was thrown on to the
      // wrapper, which answers it with a 200: not the request's fault).
      // A new topic from a Contributor: refused by role (permissions.ts), like any action.
      refuseForm(outcome.forbidden ? 403 : outcome.state.fieldErrors ? 422 : 409);
      return outcome.state;
    }
    // Saved from a form that is not the shared document's: its live editors get it now.
    if (!live) textChangedHere(outcome.pageId);
    if (outcome.merged) {
      // Saved, merged with another version: the form shows the merged text, and says so.
      rerenderActionRoute();
      return {
        values: {
          ...values,
          ...outcome.merged.text,
          slug: outcome.slug,
          originalSlug: outcome.slug,
          pageId: String(outcome.pageId),
          version: String(outcome.version),
        },
        merged: outcome.merged.note,
      };
    }
    // Publish not done: the page changed meanwhile in a way the form did not show (taken down,
    // say), so the text is kept as the draft, in the editor, and nothing goes live over it; or
    // there was nothing to publish (visitors see this text already), as the banner says too.
    const landing = !publish
      ? outcome.unscheduled
        ? 'edit&notice=saved-unscheduled'
        : 'edit&notice=saved'
      : outcome.unseen
        ? 'edit&notice=stale-publish'
        : outcome.published
          ? 'notice=published'
          : 'notice=nothing-to-publish';
    redirect(`${previewPath(outcome.slug)}?${landing}`, 303);
  },
});

/** An autosave from the editor (JavaScript only): never renames, never navigates. */
export const autosaveDraft = editorCall({
  read: (input) => readCall(autosaveSchema, input, 'This action takes the editor’s fields.'),
  may: (values) => savingAsks(values.pageId, false),
  refused: (_values, { reason, message }): AutosaveResult => ({
    ok: false,
    message,
    // The session ended: the editor stops autosaving until the editor signs in again.
    signedOut: reason === 'signed-out' ? true : undefined,
  }),
  run: async ({ live, ...values }, editor): Promise<AutosaveResult> => {
    const outcome = await saveEditorValues(values, editor, { keepAddress: true, live });
    if (!outcome.saved)
      return {
        ok: false,
        message: outcome.state.message ?? 'Not saved.',
        conflict: outcome.state.conflict,
        fieldErrors: outcome.state.fieldErrors,
      };
    if (!live) textChangedHere(outcome.pageId);
    // The banner ("last saved…", the page's state) follows. A cancelled schedule's notice
    // comes with the address the editor goes to next (use-autosave.ts): a re-render here would
    // be merged after that navigation's and put the banner back without it.
    if (!outcome.unscheduled) rerenderActionRoute();
    return {
      ok: true,
      version: outcome.version,
      pageId: outcome.pageId,
      slug: outcome.slug,
      savedAt: new Date().toISOString(),
      ...(outcome.merged ? { merged: { note: outcome.merged.note, ...outcome.merged.text } } : {}),
      ...(outcome.unscheduled ? { unscheduled: true } : {}),
    };
  },
});

/**
 * The editor's page rendered again (its banner: the page's state, "last change", the commands
 * that apply), once a live document has written this tab's typing as the draft: the document
 * writes it, not this tab's autosave, whose answer re-rendered them before (decision record
 * 0051). Reads and writes nothing itself; what the page shows is rendered as for any request.
 */
export const rerenderEditor = editorCall({
  read: () => null,
  may: () => [],
  // Signed out or busy: nothing is re-rendered, and the words say why (the editor ignores them:
  // its status line says a session ended or a busy database already, from its own saves).
  refused: (_input, { message }): { ok: boolean; error?: string } => ({
    ok: false,
    error: message,
  }),
  run: async (): Promise<{ ok: boolean; error?: string }> => {
    rerenderActionRoute();
    return { ok: true };
  },
});

/**
 * The live preview beside the editor (JavaScript only): the page as visitors would see it, as
 * the blocks the pane does not show yet (livePreviewOf).
 */
export const previewDraft = editorCall({
  read: (input) => readCall(previewDraftSchema, input, 'This action takes a body to preview.'),
  // Markdown in, HTML out: nothing stored, nothing about a page — anyone signed in may.
  may: () => [],
  refused: (_fields, { message }): LivePreview | LivePreviewRefused => ({ error: message }),
  run: async ({ body, have }, { editor }): Promise<LivePreview | LivePreviewRefused> => {
    // Past what a page holds: refused in the save's words, nothing of it rendered (the pane
    // shows the words instead of a preview of a page that could never be saved).
    const length = characterCount(body);
    if (length > BODY_MAX) {
      refuseForm(422);
      return { error: bodyTooLongMessage(length, 'previewed'), tooLong: true };
    }
    // Its listing directives shown as the page will show them (live-listings.ts).
    const preview = await inPreviewSlot(editor.id, async () =>
      livePreviewWithListings(await livePreviewOf(body, have), have),
    );
    if (preview !== null) return preview;
    refuseForm(429);
    return { error: PREVIEWS_BUSY_MESSAGE };
  },
});

/**
 * The form says which page it was made for and which version it showed: acting on another
 * page that took the slug, or on text the editor has not seen, is refused.
 */
function expectedOf(input: { pageId?: number | undefined; version?: number | undefined }) {
  return { pageId: input.pageId ?? -1, version: input.version ?? -1 };
}

const readCommand = (input: unknown) => readForm(pageCommandSchema, input);
/** A banner command's page: the id its form names, else the page at its address. */
const commandAsks =
  (action: Asked['action']) =>
  (input: { slug: string; pageId?: number | undefined }): Asked[] => [
    { action, page: input.pageId ?? input.slug },
  ];
const landOnPage = async (input: { slug: string }, notice: string) =>
  backToPage(input.slug, notice);

export const publishPage = editorCommand({
  read: readCommand,
  may: commandAsks('page.publish'),
  run: async (input, editor) => {
    // A published page with no draft (a banner from before someone published it, or a forged
    // post): nothing to publish, and saying "Published" would claim a change that did not
    // happen. A form whose version is stale is told so by the store below.
    const shown = await contentStore().getPage(input.slug, { draft: true });
    if (
      shown?.state === 'published' &&
      (input.pageId === undefined || shown.id === input.pageId) &&
      (input.version === undefined || shown.version === input.version)
    )
      return 'nothing-to-publish';
    await contentStore().publish(input.slug, {
      editor: editor.editor.email,
      keepsRedirects: !can(editor.editor, 'redirect.edit'),
      ...expectedOf(input),
    });
    return 'published';
  },
  land: landOnPage,
});

export const unpublishPage = editorCommand({
  read: readCommand,
  may: commandAsks('page.unpublish'),
  run: async (input, editor) => {
    await contentStore().unpublish(input.slug, {
      editor: editor.editor.email,
      ...expectedOf(input),
    });
    return 'unpublished';
  },
  land: landOnPage,
});

export const discardDraft = editorCommand({
  read: readCommand,
  may: commandAsks('page.edit'),
  run: async (input, editor) => {
    const store = contentStore();
    const page = await store.getPage(input.slug, { draft: true });
    const wasDraftOnly = page?.state === 'draft-only';
    // A page visitors never saw goes for good with its draft: that is deleting it.
    if (wasDraftOnly) await requirePermission(editor, commandAsks('page.delete')(input));
    if (page) await draftsWrittenHere(page.id);
    await store.discardDraft(input.slug, { editor: editor.editor.email, ...expectedOf(input) });
    if (page) textChangedHere(page.id);
    return wasDraftOnly ? 'deleted' : 'discarded';
  },
  land: landOnPage,
});

/**
 * After a restore (of a publish or a save): the editor, saying so — and, for a version from
 * before an image was deleted, saying that now rather than first at Publish.
 */
async function landOnRestored(pageId: number, slug: string, unscheduled: boolean): Promise<never> {
  const restored = await contentStore().getPageById(pageId);
  const notice =
    restored && (await contentStore().missingMedia(restored.bodyHtml)).length > 0
      ? 'restored-missing-media'
      : // Restored by someone who may not schedule it: a reviewer's schedule ended, as on a save.
        unscheduled
        ? 'restored-unscheduled'
        : 'restored';
  return redirect(`${previewPath(slug)}?edit&notice=${notice}`, 303);
}

/** Where a restore the run did not redirect lands (stale, gone…): the history, with the reason. */
const landFromHistory = async ({ slug }: { slug: string }, notice: string) =>
  redirect(
    `${previewPath(slug)}?${notice.startsWith('restored') ? 'edit&' : 'history&'}notice=${notice}`,
    303,
  );

/** Makes an earlier published version the draft (from the history), if the page is as shown. */
export const restoreRevision = editorCommand({
  read: (input) => readForm(restoreRevisionSchema, input),
  may: ({ pageId }) => [{ action: 'page.edit', page: pageId }],
  run: async ({ pageId, revisionId, version }, editor) => {
    const store = contentStore();
    await draftsWrittenHere(pageId);
    const result = await store.restoreRevision({
      pageId: pageId,
      revisionId: revisionId,
      expectedVersion: version,
      editor: editor.editor.email,
      cancelsSchedule: await changeCancelsSchedule(editor, pageId),
    });
    if (!result.ok) return 'stale';
    textChangedHere(pageId);
    return landOnRestored(pageId, result.slug, result.unscheduled === true);
  },
  land: landFromHistory,
});

/** Makes a saved checkpoint the draft (from the history); the draft it replaces stays one. */
export const restoreCheckpoint = editorCommand({
  read: (input) => readForm(restoreCheckpointSchema, input),
  may: ({ pageId }) => [{ action: 'page.edit', page: pageId }],
  run: async ({ pageId, checkpointId, version }, editor) => {
    const store = contentStore();
    await draftsWrittenHere(pageId);
    const result = await store.restoreCheckpoint({
      pageId,
      checkpointId,
      expectedVersion: version,
      editor: editor.editor.email,
      cancelsSchedule: await changeCancelsSchedule(editor, pageId),
    });
    if (!result.ok) return 'stale';
    textChangedHere(pageId);
    return landOnRestored(pageId, result.slug, result.unscheduled === true);
  },
  land: landFromHistory,
});
