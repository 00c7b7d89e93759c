'use server';
// Owns the redirects screen's actions (redirect-form.tsx): add one, remove one. The rules are
// the store's (content/redirects.ts); this turns its refusals into the form's words.
import { unstable_redirect as redirect } from 'waku/router/server';
import { contentStore } from '../../content/content';
import type { RedirectError } from '../../content/redirects';
import { REDIRECTS_SCREEN } from '../../http/routes';
import { editorForm, readForm, refuseForm } from '../action';
import { type RedirectFormState, redirectFormSchema, redirectRemoveSchema } from '../forms';

/** Adds a redirect; a refusal comes back with what was typed and the reason. */
export const addRedirect = editorForm({
  read: (input) => readForm(redirectFormSchema, input),
  may: () => [{ action: 'redirect.edit' }],
  refused: (values, { message }): RedirectFormState => ({ values, error: message }),
  run: async (values, editor): Promise<RedirectFormState> => {
    await contentStore().addRedirect(
      { from: values.from, to: values.to, status: values.status === '302' ? 302 : 301 },
      { editor: editor.editor.email },
    );
    redirect(`${REDIRECTS_SCREEN}&notice=redirect-added`, 303);
  },
  rejected: (values, error): RedirectFormState | undefined => {
    if (error.code !== 'invalid' && error.code !== 'conflict') return undefined;
    refuseForm(error.code === 'conflict' ? 409 : 422);
    return {
      values,
      error: error.message,
      field: (error as Partial<RedirectError>).field === 'to' ? 'to' : 'from',
    };
  },
});

/** Removes a redirect; one already removed (another tab) says so. */
export const removeRedirect = editorForm({
  read: (input) => readForm(redirectRemoveSchema, input),
  may: () => [{ action: 'redirect.edit' }],
  refused: (_values, { message }): RedirectFormState => ({ error: message }),
  run: async ({ from }): Promise<RedirectFormState> => {
    const removed = await contentStore().removeRedirect(from);
    redirect(`${REDIRECTS_SCREEN}&notice=${removed ? 'redirect-removed' : 'redirect-gone'}`, 303);
  },
});
