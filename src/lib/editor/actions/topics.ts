'use server';
// Owns the topics screen's action: a topic's name, address and introduction (topic-form.tsx).
import { unstable_redirect as redirect } from 'waku/router/server';
import { contentStore } from '../../content/content';
import { TOPICS_SCREEN } from '../../http/routes';
import { editorForm, readForm, refuseForm } from '../action';
import { type TopicFormState, topicFormSchema } from '../forms';

/**
 * Saves a topic. A refusal (a taken or reserved address, another topic's name, a field too
 * long) comes back in the form with the reason, the typed text kept; a save answers with the
 * screen and a notice. A new address makes the old one redirect.
 */
export const saveTopic = editorForm({
  read: (input) => readForm(topicFormSchema, input),
  may: () => [{ action: 'topic.edit' }],
  // An ended session says so in its own words; a busy database, with what was not done.
  refused: ({ name, slug, intro }, { reason, message }): TopicFormState => ({
    error: reason === 'signed-out' ? message : `Nothing was saved: ${message}`,
    values: { name, slug, intro },
  }),
  run: async ({ id, name, slug, intro, updated_at: updatedAt }): Promise<TopicFormState> => {
    await contentStore().updateTopic(id ?? 0, { name, slug, intro }, { updatedAt });
    // A fixed notice, never words from the URL.
    redirect(`${TOPICS_SCREEN}&notice=topic-saved`, 303);
  },
  rejected: ({ name, slug, intro }, error): TopicFormState => {
    refuseForm(error.code === 'conflict' ? 409 : 422);
    return { error: error.message, values: { name, slug, intro } };
  },
});
