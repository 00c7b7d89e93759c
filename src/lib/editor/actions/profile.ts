'use server';
// Owns the author profile action (author-profile-form.tsx): the signed-in editor's own public
// name, address, bio, photo and links. Nobody edits another's profile here.
import { unstable_redirect as redirect } from 'waku/router/server';
import { contentStore } from '../../content/content';
import { can } from '../../editors/permissions';
import { AUTHOR_PROFILE } from '../../http/routes';
import { editorForm, readForm, refuseForm } from '../action';
import { type AuthorProfileState, authorProfileSchema } from '../forms';

export const saveAuthorProfile = editorForm({
  read: (input) => {
    const { updated_at: updatedAt, ...values } = readForm(authorProfileSchema, input);
    return { values, updatedAt };
  },
  refused: ({ values }, { message }): AuthorProfileState => ({ values, error: message }),
  // Their own profile: the action saves the signed-in person's, never another's.
  may: () => [{ action: 'profile.edit' }],
  run: async ({ values, updatedAt }, editor): Promise<AuthorProfileState> => {
    await contentStore().saveAuthorProfile(editor.editor.id, values, {
      updatedAt: updatedAt === '' ? null : updatedAt,
      keepsRedirects: !can(editor.editor, 'redirect.edit'),
    });
    redirect(`${AUTHOR_PROFILE}&notice=profile-saved`, 303);
  },
  rejected: ({ values }, error): AuthorProfileState | undefined => {
    if (error.code === 'redirect-source') refuseForm(403);
    else if (error.code === 'invalid' || error.code === 'conflict')
      refuseForm(error.code === 'conflict' ? 409 : 422);
    else return undefined;
    return { values, error: error.message };
  },
});
