'use client';
import { useActionState } from 'react';
import { REDIRECT_FROM_MAX, REDIRECT_TO_MAX } from '../../lib/content/redirect-limits';
import { addRedirect, removeRedirect } from '../../lib/editor/actions/redirects';
import type { RedirectFormState } from '../../lib/editor/forms';

/**
 * A new redirect: from an address, to a page or another site, permanent or temporary. A refusal
 * comes back with what was typed and the reason beside the field it is about, with or without
 * JavaScript; a redirect made answers with the list and a notice.
 */
export function RedirectForm() {
  const [answer, action, pending] = useActionState<RedirectFormState, FormData>(addRedirect, {});
  const state = answer ?? {};
  const values = state.values;
  const error = (field: 'from' | 'to') =>
    state.error && (state.field ?? 'from') === field ? state.error : null;
  return (
    <form action={action} className="redirect-form" key={values ? 'refused' : 'new'}>
      <label>
        From (an address on this site)
        <input
          name="from"
          type="text"
          required
          maxLength={REDIRECT_FROM_MAX}
          placeholder="/old-post"
          defaultValue={values?.from ?? ''}
          aria-invalid={error('from') ? true : undefined}
          aria-describedby={error('from') ? 'redirect-from-error' : undefined}
          spellCheck={false}
          autoComplete="off"
        />
        {error('from') ? (
          <span id="redirect-from-error" className="form-error" role="alert">
            {error('from')}
          </span>
        ) : null}
      </label>
      <label>
        To (a page, or another site’s full address)
        <input
          name="to"
          type="text"
          required
          maxLength={REDIRECT_TO_MAX}
          placeholder="/new-post or https://example.com/"
          defaultValue={values?.to ?? ''}
          aria-invalid={error('to') ? true : undefined}
          aria-describedby={error('to') ? 'redirect-to-error' : undefined}
          spellCheck={false}
          autoComplete="off"
        />
        {error('to') ? (
          <span id="redirect-to-error" className="form-error" role="alert">
            {error('to')}
          </span>
        ) : null}
      </label>
      <fieldset>
        <legend>Kind</legend>
        <label className="inline-choice">
          <input type="radio" name="status" value="301" defaultChecked={values?.status !== '302'} />
          Permanent (301): search engines move the old address’s standing to the new one
        </label>
        <label className="inline-choice">
          <input type="radio" name="status" value="302" defaultChecked={values?.status === '302'} />
          Temporary (302): the old address comes back later
        </label>
      </fieldset>
      <button type="submit" className="primary" disabled={pending}>
        Add redirect
      </button>
    </form>
  );
}

/** Removes one redirect: its row's button. */
export function RemoveRedirectButton({ from }: { from: string }) {
  const [answer, action, pending] = useActionState<RedirectFormState, FormData>(removeRedirect, {});
  return (
    <form action={action} className="inline-form">
      <input type="hidden" name="from" value={from} />
      <button
        type="submit"
        className="danger"
        disabled={pending}
        aria-label={`Remove the redirect from ${from}`}
      >
        Remove
      </button>
      {answer?.error ? (
        <span className="form-error" role="alert">
          {answer.error}
        </span>
      ) : null}
    </form>
  );
}
