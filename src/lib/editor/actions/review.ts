'use server';
// Owns the review actions (decision 0040): a writer's Submit for review (the banner) and a
// reviewer's Send back with a note (the review screen). Publishing and scheduling a reviewed
// draft are the existing actions (pages.ts, schedules.ts), which end the request in their own
// transaction. Who may do each is the permission table's: page.submit, page.review.
import { unstable_redirect as redirect } from 'waku/router/server';
import { contentStore } from '../../content/content';
import { reviewNoteProblem } from '../../content/review';
import { previewPath } from '../../http/routes';
import { editorCommand, editorForm, readForm, refuseForm } from '../action';
import { type SendBackState, sendBackSchema, submitReviewSchema } from '../forms';
import { backToPage } from '../landing';

/** The words of each outcome are the banner's (preview-banner.tsx NOTICES). */
export const submitForReview = editorCommand({
  read: (input) => readForm(submitReviewSchema, input),
  may: ({ pageId }) => [{ action: 'page.submit', page: pageId }],
  run: async ({ pageId, version }, editor) => {
    const outcome = await contentStore().submitForReview(pageId, {
      editor: editor.editor.email,
      expectedVersion: version,
    });
    return outcome === 'already' ? 'review-already' : 'review-submitted';
  },
  land: async ({ slug }, notice) =>
    // Refused because there is nothing to review (published meanwhile): the banner says so.
    backToPage(slug, notice === 'refused' ? 'review-nothing' : notice),
});

/** Sends a waiting page back to its writer with a note (required, at most REVIEW_NOTE_MAX). */
export const sendBackForReview = editorForm({
  read: (input) => readForm(sendBackSchema, input),
  check: ({ note }): SendBackState | undefined => {
    const problem = reviewNoteProblem(note);
    if (problem === null) return undefined;
    refuseForm(422);
    return { error: problem, note };
  },
  may: ({ pageId }) => [{ action: 'page.review', page: pageId }],
  refused: ({ note }, { message }): SendBackState => ({ error: message, note }),
  run: async ({ slug, pageId, version, note }, editor): Promise<SendBackState> => {
    await contentStore().sendBack(pageId, {
      editor: editor.editor.email,
      note,
      expectedVersion: version,
    });
    redirect(`${previewPath(slug)}?notice=sent-back`, 303);
  },
  rejected: ({ note }, error): SendBackState => {
    refuseForm(error.code === 'invalid' ? 422 : error.code === 'not-found' ? 404 : 409);
    return { error: error.message, note };
  },
});
