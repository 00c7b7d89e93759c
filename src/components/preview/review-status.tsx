// Owns what the page's banner says of review before publish (decision 0040): the writer's
// Submit for review, "waiting for review" (and, to a reviewer, the way to the review screen),
// and a reviewer's note sent back, shown to the writer until they save again or resubmit.
import 'server-only';
import { noteShown, type ReviewRequest, updatedSince } from '../../lib/content/review';
import type { PageView } from '../../lib/content/types';
import { submitForReview } from '../../lib/editor/actions/review';
import { previewPath } from '../../lib/http/routes';
import { LocalTime } from './local-time';

/** Whether Submit for review applies: a draft not already waiting as it is now. */
export function submitApplies(page: PageView, review: ReviewRequest | null): boolean {
  if (page.state === 'published') return false;
  return !(review?.state === 'waiting' && review.askedVersion === page.version);
}

/** `primary`: the writer's main button (they may not publish it themselves). */
export function SubmitForReviewForm({
  page,
  review,
  primary,
}: {
  page: PageView;
  review: ReviewRequest | null;
  primary: boolean;
}) {
  return (
    <form action={submitForReview} className="inline-form command-submit-review">
      <input type="hidden" name="slug" value={page.slug} />
      <input type="hidden" name="pageId" value={page.id} />
      <input type="hidden" name="version" value={page.version} />
      <button type="submit" className={primary ? 'primary' : undefined}>
        {review?.state === 'waiting' ? 'Submit the changes for review' : 'Submit for review'}
      </button>
    </form>
  );
}

/**
 * The request's state in words, outside the banner's menu (it waits for someone's answer, like
 * a missed schedule). `mayReview`: the reader may review it (can(…, 'page.review', page)).
 */
export function ReviewStatus({
  page,
  review,
  mayReview,
}: {
  page: PageView;
  review: ReviewRequest | null;
  mayReview: boolean;
}) {
  if (!review) return null;
  if (review.state === 'waiting')
    return (
      <p role="status" className="notice review-status review-waiting">
        <strong>Waiting for review</strong> · asked by {review.askedBy} on{' '}
        <LocalTime iso={review.askedAt} />
        {updatedSince(review, page.version) ? ' · updated after submitting' : ''}
        {mayReview ? (
          <>
            {' '}
            <a href={`${previewPath(page.slug)}?review`}>Review it</a>
          </>
        ) : null}
      </p>
    );
  if (noteShown(review, page.version))
    return (
      <div role="alert" className="notice review-status review-sent-back">
        <p>
          <strong>Sent back</strong>
          {review.notedBy ? ` by ${review.notedBy}` : ''} on{' '}
          <LocalTime iso={review.notedAt ?? review.askedAt} />. Edit the draft, then submit it for
          review again.
        </p>
        <blockquote className="review-note">{review.note}</blockquote>
      </div>
    );
  return (
    <p role="status" className="notice review-status">
      Sent back for changes; the note is in the{' '}
      <a href={`${previewPath(page.slug)}?history`}>history</a>. Submit it for review again when it
      is ready.
    </p>
  );
}
