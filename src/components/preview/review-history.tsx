// Owns the page history's account of its reviews (decision 0040): each submit, each send back
// with its note, and the publish or schedule that answered a request, oldest first.
import type { ReviewEvent, ReviewEventKind } from '../../lib/content/review';
import { LocalTime } from './local-time';

const WORDS: Record<ReviewEventKind, string> = {
  submitted: 'Submitted for review',
  resubmitted: 'Submitted again for review',
  'sent-back': 'Sent back',
  published: 'Published after review',
  scheduled: 'Scheduled after review',
};

export function ReviewHistory({ events }: { events: readonly ReviewEvent[] }) {
  if (events.length === 0) return null;
  return (
    <section aria-labelledby="review-history-title">
      <h2 id="review-history-title">Review</h2>
      <ol className="history-list review-history">
        {events.map((event) => (
          <li key={event.id}>
            <span>
              <strong>{WORDS[event.kind]}</strong> <LocalTime iso={event.at} />
              {event.editor ? ` by ${event.editor}` : ''}
            </span>
            {event.note ? <blockquote className="review-note">{event.note}</blockquote> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
