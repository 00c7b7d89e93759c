// Owns the review screen's body (/preview/<slug>?review, decision 0040): who asked and when,
// whether the draft changed after they asked, the word diff of the draft against what visitors
// see, and the reviewer's three answers — Publish and Schedule (the existing actions, which end
// the request) and Send back with a note. Each control is shown only to whom the permission
// table allows it (the caller asks can()); the actions ask again.
import 'server-only';
import type { ReviewRequest } from '../../lib/content/review';
import type { PageView, Schedule } from '../../lib/content/types';
import { publishPage } from '../../lib/editor/actions/pages';
import { previewPath } from '../../lib/http/routes';
import { LocalTime } from './local-time';
import { SendBackForm } from './review-send-back';
import { ScheduleForm } from './schedule-form';
import { FieldsDiff } from './word-diff';

export type ReviewAllowed = { review: boolean; publish: boolean; schedule: boolean };

const NOTHING = { title: '', summary: '', body: '' };

export function ReviewPanel({
  page,
  published,
  review,
  schedule,
  allowed,
  refusal,
}: {
  page: PageView;
  /** What visitors see now, or null for a page never published. */
  published: PageView | null;
  review: ReviewRequest | null;
  schedule: Schedule | null;
  allowed: ReviewAllowed;
  /** Why this reader may not review it, in words (when `allowed.review` is false). */
  refusal: string;
}) {
  const back = <a href={previewPath(page.slug)}>Back to the page</a>;
  if (!allowed.review)
    return (
      <section className="review-panel" aria-labelledby="review-title">
        <h1 id="review-title">Review “{page.title}”</h1>
        <p role="alert">{refusal}</p>
        <p>{back}</p>
      </section>
    );
  if (review?.state !== 'waiting')
    return (
      <section className="review-panel" aria-labelledby="review-title">
        <h1 id="review-title">Review “{page.title}”</h1>
        <p role="status">
          This page is not waiting for review: it was published, scheduled or sent back, or never
          submitted. {back}
        </p>
      </section>
    );
  const changedSince = page.version > review.askedVersion;
  return (
    <section className="review-panel" aria-labelledby="review-title">
      <h1 id="review-title">Review “{page.title}”</h1>
      <p className="review-asked">
        Submitted by <strong>{review.askedBy}</strong> on <LocalTime iso={review.askedAt} />.{' '}
        {changedSince ? (
          <strong className="review-updated">
            Updated after submitting: this is the draft as it is now.
          </strong>
        ) : (
          'Unchanged since.'
        )}{' '}
        {back}
      </p>
      <FieldsDiff
        before={
          published
            ? { title: published.title, summary: published.summary, body: published.bodyMarkdown }
            : NOTHING
        }
        after={{ title: page.title, summary: page.summary, body: page.bodyMarkdown }}
        beforeLabel={published ? 'What visitors see now' : 'Not published yet'}
        afterLabel="The draft submitted"
      />
      <div className="review-answers">
        {allowed.publish ? (
          <form action={publishPage} className="inline-form command-publish">
            <input type="hidden" name="slug" value={page.slug} />
            <input type="hidden" name="pageId" value={page.id} />
            <input type="hidden" name="version" value={page.version} />
            <button type="submit" className="primary">
              Publish this draft
            </button>
          </form>
        ) : null}
        {allowed.schedule ? (
          <ScheduleForm
            slug={page.slug}
            pageId={page.id}
            version={page.version}
            schedule={schedule}
          />
        ) : null}
        <SendBackForm slug={page.slug} pageId={page.id} version={page.version} />
      </div>
    </section>
  );
}
