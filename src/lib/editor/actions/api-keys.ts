'use server';
// Owns the API keys screen's actions (api-key-forms.tsx): make a key, revoke one. The rules are
// the key store's (api-keys/api-keys.ts); this turns its refusals into the form's words. A key
// made is answered in the form's state, shown that once: it is not in any address, notice or
// log, and the store keeps only its hash.
import { unstable_redirect as redirect } from 'waku/router/server';
import { ApiKeyError, apiKeysDatabase, createApiKey, revokeApiKey } from '../../api-keys/api-keys';
import { API_KEYS_SCREEN } from '../../http/routes';
import { rerenderActionRoute } from '../../waku/rerender';
import { editorForm, readForm, refuseForm } from '../action';
import { type ApiKeyFormState, apiKeyCreateSchema, apiKeyRevokeSchema } from '../forms';

/** Makes a key and shows it once; a refusal comes back with the name typed and the reason. */
export const createKey = editorForm({
  read: (input) => readForm(apiKeyCreateSchema, input),
  may: () => [{ action: 'api-keys.manage' }],
  refused: (values, { message }): ApiKeyFormState => ({ values, error: message }),
  run: async (values, editor): Promise<ApiKeyFormState> => {
    try {
      const { key, apiKey } = await createApiKey(await apiKeysDatabase(), {
        name: values.name,
        actor: { id: editor.editor.id, email: editor.editor.email },
      });
      // The list under the form shows the new key's row; the key itself is only in this answer.
      rerenderActionRoute();
      return { made: { key, name: apiKey.name, prefix: apiKey.prefix } };
    } catch (error) {
      if (!(error instanceof ApiKeyError)) throw error;
      refuseForm(error.code === 'cap' ? 409 : 422);
      return { values, error: error.message };
    }
  },
});

/** Revokes a key; one already revoked (another tab) says so. */
export const revokeKey = editorForm({
  read: (input) => readForm(apiKeyRevokeSchema, input),
  may: () => [{ action: 'api-keys.manage' }],
  refused: (_values, { message }): ApiKeyFormState => ({ error: message }),
  run: async ({ key }, editor): Promise<ApiKeyFormState> => {
    let revoked: boolean;
    try {
      ({ revoked } = await revokeApiKey(await apiKeysDatabase(), Number(key), {
        id: editor.editor.id,
        email: editor.editor.email,
      }));
    } catch (error) {
      if (!(error instanceof ApiKeyError)) throw error;
      refuseForm(404);
      return { error: error.message };
    }
    redirect(`${API_KEYS_SCREEN}&notice=${revoked ? 'key-revoked' : 'key-gone'}`, 303);
  },
});
