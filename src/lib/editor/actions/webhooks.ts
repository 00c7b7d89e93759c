'use server';
// Owns the webhooks screen's actions (webhook-forms.tsx, decision 0046): add an endpoint (its
// secret comes back in the form's answer, shown once), turn one off or on, remove it, give it
// a new secret, send a delivery again. Each asks the guard for webhooks.manage (Administrators);
// the rules and audit entries are webhooks/manage.ts's, and this turns their refusals into the
// form's words and status, and a success into the screen's notice.
import { unstable_redirect as redirect } from 'waku/router/server';
import { getDatabase } from '../../data/db';
import { WEBHOOKS_SCREEN } from '../../http/routes';
import { rerenderActionRoute } from '../../waku/rerender';
import {
  createWebhook,
  deleteWebhook,
  redeliverWebhook,
  rotateWebhookSecret,
  setWebhookEnabled,
} from '../../webhooks/manage';
import { isWebhookError } from '../../webhooks/store';
import { editorForm, readForm, refuseForm } from '../action';
import {
  type WebhookFormState,
  webhookAddSchema,
  webhookChangeSchema,
  webhookRedeliverSchema,
} from '../forms';
import type { Asked } from '../guard';

const MANAGE: readonly Asked[] = [{ action: 'webhooks.manage' }];

/** The screen again, with a notice in fixed words (webhooks.tsx). */
function landOnWebhooks(notice: string, anchor = ''): never {
  redirect(`${WEBHOOKS_SCREEN}&notice=${notice}${anchor}`, 303);
  throw new Error('unreachable: redirect throws');
}

/** Registers an endpoint; a refusal comes back with what was typed and the reason (422). */
export const addWebhook = editorForm({
  read: (input) => readForm(webhookAddSchema, input),
  may: () => MANAGE,
  refused: (values, { message }): WebhookFormState => ({ values, error: message }),
  run: async (values, { editor }): Promise<WebhookFormState> => {
    try {
      const { endpoint, secret } = await createWebhook(await getDatabase(), {
        url: values.url,
        events: values.events,
        by: editor.email,
      });
      // The list shows the new endpoint beside its secret (a call from the page's JavaScript;
      // a form posted without it re-renders the page anyway).
      rerenderActionRoute();
      return { secret: { webhook: endpoint.id, url: endpoint.url, secret } };
    } catch (error) {
      if (!isWebhookError(error)) throw error;
      refuseForm(422);
      return { values, error: error.message };
    }
  },
});

/** Turns an endpoint off or on, removes it, or gives it a new secret (shown once). */
export const changeWebhook = editorForm({
  read: (input) => readForm(webhookChangeSchema, input),
  may: () => MANAGE,
  refused: (_input, { message }): WebhookFormState => ({ error: message }),
  run: async ({ webhook, intent }): Promise<WebhookFormState> => {
    const db = await getDatabase();
    const id = webhook ?? 0;
    try {
      if (intent === 'disable') await setWebhookEnabled(db, id, false);
      else if (intent === 'enable') await setWebhookEnabled(db, id, true);
      else if (intent === 'remove') await deleteWebhook(db, id);
      else if (intent === 'rotate') {
        const secret = await rotateWebhookSecret(db, id);
        return { secret: { webhook: id, url: '', secret } };
      } else {
        refuseForm(400);
        return { error: 'This form was not made by Folio.' };
      }
    } catch (error) {
      if (isWebhookError(error) && error.code === 'not-found') landOnWebhooks('webhook-gone');
      throw error;
    }
    landOnWebhooks(`webhook-${intent}d`);
  },
});

/** Sends a delivered or given-up delivery again; one still being tried says so. */
export const redeliverWebhookAction = editorForm({
  read: (input) => readForm(webhookRedeliverSchema, input),
  may: () => MANAGE,
  refused: (_input, { message }): WebhookFormState => ({ error: message }),
  run: async ({ delivery }): Promise<WebhookFormState> => {
    let endpoint: number;
    try {
      endpoint = (await redeliverWebhook(await getDatabase(), delivery ?? 0)).endpointId;
    } catch (error) {
      if (!isWebhookError(error)) throw error;
      if (error.code === 'already-pending') {
        refuseForm(409);
        return { error: error.message };
      }
      landOnWebhooks('delivery-gone');
    }
    landOnWebhooks('delivery-queued', `&log=${endpoint}#deliveries`);
  },
});
