'use client';
import { useActionState } from 'react';
import { createShareLink } from '../../lib/editor/actions/share-links';
import type { ShareLinkState } from '../../lib/editor/forms';
import { LocalTime } from './local-time';

export function ShareLinkForm({
  pageId,
  slug,
  allowed,
}: {
  pageId: number;
  slug: string;
  /** Whether this reader may make one: otherwise only a posted form's refusal is shown. */
  allowed: boolean;
}) {
  const [answer, action, pending] = useActionState<ShareLinkState, FormData>(createShareLink, {});
  // An action that succeeded redirects, and React then leaves undefined as the state.
  const state = answer ?? {};
  if (!allowed)
    return state.error ? (
      <p className="form-error" role="alert">
        {state.error}
      </p>
    ) : null;
  return (
    <form action={action} className="inline-form">
      <input type="hidden" name="pageId" value={pageId} />
      <input type="hidden" name="slug" value={slug} />
      <label>
        Share for {/* Keyed by the choice returned, so the select shows it after submitting. */}
        <select name="ttl" defaultValue={state.ttl ?? '24h'} key={state.ttl ?? '24h'}>
          <option value="1h">1 hour</option>
          <option value="24h">24 hours</option>
          <option value="7d">7 days</option>
        </select>
      </label>
      <button type="submit" disabled={pending}>
        Create share link
      </button>
      {state.url ? (
        <output className="share-link">
          <input
            readOnly
            value={state.url}
            aria-label="Share link"
            onFocus={(event) => event.currentTarget.select()}
          />
          <small>
            Read-only; works until <LocalTime iso={state.expiresAt ?? ''} />.
          </small>
        </output>
      ) : null}
      {state.error ? <span className="form-error">{state.error}</span> : null}
    </form>
  );
}
