'use client';
// The review screen's Send back: a note for the writer, required and limited in length
// (REVIEW_NOTE_MAX, checked by the browser and again by the action). A refusal hands the note
// back as typed.
import { useActionState } from 'react';
import { REVIEW_NOTE_MAX } from '../../lib/content/field-limits';
import { sendBackForReview } from '../../lib/editor/actions/review';
import type { SendBackState } from '../../lib/editor/forms';

export function SendBackForm({
  slug,
  pageId,
  version,
}: {
  slug: string;
  pageId: number;
  version: number;
}) {
  const [answer, action, pending] = useActionState<SendBackState, FormData>(sendBackForReview, {});
  const state = answer ?? {};
  return (
    <form action={action} className="review-send-back">
      <input type="hidden" name="slug" value={slug} />
      <input type="hidden" name="pageId" value={pageId} />
      <input type="hidden" name="version" value={version} />
      <label htmlFor="review-note" className="review-note-label">
        Note for the writer{' '}
        <span className="hint">(required; they see it in their page’s banner)</span>
      </label>
      <textarea
        id="review-note"
        name="note"
        rows={4}
        required
        maxLength={REVIEW_NOTE_MAX}
        defaultValue={state.note ?? ''}
        key={state.note ?? ''}
        aria-invalid={state.error ? true : undefined}
        aria-describedby={state.error ? 'review-note-error' : undefined}
      />
      {state.error ? (
        <p id="review-note-error" className="form-error" role="alert">
          {state.error}
        </p>
      ) : null}
      <button type="submit" disabled={pending}>
        Send back
      </button>
    </form>
  );
}
