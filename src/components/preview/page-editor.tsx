'use client';
import { useActionState } from 'react';
import { formatUtc } from '../../lib/dates';
import { saveDraft } from './actions';
import type { EditorFormState, EditorFormValues } from './forms';

function FieldError({ name, state }: { name: string; state: EditorFormState }) {
  const message = state.fieldErrors?.[name];
  return message ? (
    <span id={`${name}-error`} className="field-error">
      {message}
    </span>
  ) : null;
}

/** Create or edit a page. On any refusal the typed text comes back in the form. */
export function PageEditor({ initial, isNew }: { initial: EditorFormValues; isNew: boolean }) {
  const [state, action, pending] = useActionState<EditorFormState, FormData>(saveDraft, {});
  const values = state.values ?? initial;
  const invalid = (name: string) =>
    state.fieldErrors?.[name] ? { 'aria-invalid': true, 'aria-describedby': `${name}-error` } : {};
  return (
    // The key resets the uncontrolled fields to the returned values after each submission.
    <form action={action} className="editor" key={JSON.stringify(values)}>
      {state.message ? (
        <p role="alert" className="form-error">
          {state.message}
        </p>
      ) : null}
      {state.conflict ? (
        <section className="conflict" aria-label="Saved meanwhile">
          <h2>
            Saved meanwhile{state.conflict.savedBy ? ` by ${state.conflict.savedBy}` : ''} at{' '}
            {formatUtc(state.conflict.savedAt)}
          </h2>
          <p>
            <strong>{state.conflict.title}</strong>
          </p>
          <pre className="conflict-body">{state.conflict.body}</pre>
          <p>Your text is in the form below. Saving again replaces their version with yours.</p>
        </section>
      ) : null}
      <input type="hidden" name="originalSlug" value={values.originalSlug} />
      <input type="hidden" name="version" value={values.version} />
      <label>
        Title
        <input
          name="title"
          defaultValue={values.title}
          required
          maxLength={200}
          {...invalid('title')}
        />
        <FieldError name="title" state={state} />
      </label>
      <label>
        Slug
        <input
          name="slug"
          defaultValue={values.slug}
          required
          maxLength={100}
          pattern="[a-z0-9]+(-[a-z0-9]+)*"
          readOnly={values.originalSlug === 'home'}
          {...invalid('slug')}
        />
        <FieldError name="slug" state={state} />
        {!isNew && values.originalSlug !== 'home' ? (
          <span className="hint">
            Changing the slug renames the page at once; the old address will redirect.
          </span>
        ) : null}
      </label>
      <label>
        Summary
        <textarea
          name="summary"
          defaultValue={values.summary}
          rows={2}
          maxLength={500}
          {...invalid('summary')}
        />
        <FieldError name="summary" state={state} />
      </label>
      <label>
        Body (Markdown)
        <textarea name="body" defaultValue={values.body} rows={18} {...invalid('body')} />
        <FieldError name="body" state={state} />
      </label>
      <button type="submit" disabled={pending}>
        {pending ? 'Saving…' : isNew ? 'Create draft' : 'Save draft'}
      </button>
    </form>
  );
}
