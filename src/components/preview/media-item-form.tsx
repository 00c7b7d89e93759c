'use client';
import { useActionState } from 'react';
import { changeMedia } from '../../lib/editor/actions/media';
import type { MediaChangeState } from '../../lib/editor/forms';

/**
 * One image's alt text and delete, in the media library. A refused alt text comes back in the
 * field with the reason beside it, with or without JavaScript (a redirect would lose it);
 * what succeeds answers with the library and a notice.
 */
export function MediaItemForm({ hash, alt, inUse }: { hash: string; alt: string; inUse: boolean }) {
  const [answer, action, pending] = useActionState<MediaChangeState, FormData>(changeMedia, {});
  const state = answer ?? {};
  return (
    <form action={action} className="inline-form">
      <input type="hidden" name="hash" value={hash} />
      <label>
        Alt text{' '}
        <input
          type="text"
          name="alt"
          defaultValue={state.alt ?? alt}
          key={state.alt === undefined ? 'saved' : 'refused'}
          maxLength={300}
          required
          aria-invalid={state.error ? true : undefined}
        />
      </label>
      <button type="submit" name="intent" value="alt" disabled={pending}>
        Save alt text
      </button>
      <button
        type="submit"
        name="intent"
        value="delete"
        className="danger"
        formNoValidate
        disabled={inUse || pending}
        title={inUse ? 'In use (said above): take it out of there first.' : undefined}
      >
        Delete
      </button>
      {state.error ? (
        <span className="form-error" role="alert">
          {state.error}
        </span>
      ) : null}
    </form>
  );
}
