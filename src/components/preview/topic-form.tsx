'use client';
import { useActionState } from 'react';
import { TOPIC_INTRO_MAX, TOPIC_NAME_MAX } from '../../lib/content/post-fields';
import { MAX_SLUG_LENGTH } from '../../lib/content/slugs';
import { saveTopic } from '../../lib/editor/actions/topics';
import type { TopicFormState } from '../../lib/editor/forms';

/**
 * One topic's name, address and introduction on the topics screen. A refusal comes back in the
 * form with the reason, the typed text kept, with or without JavaScript; a save answers with
 * the screen and a notice.
 */
export function TopicForm({
  topic,
}: {
  topic: { id: number; name: string; slug: string; intro: string; updatedAt: string };
}) {
  const [state, action, pending] = useActionState<TopicFormState, FormData>(saveTopic, {});
  const values = state.values ?? topic;
  const key = state.values ? 'refused' : 'saved';
  const id = `topic-${topic.id}`;
  return (
    <form action={action} className="topic-form" aria-labelledby={`${id}-name`}>
      <input type="hidden" name="id" value={topic.id} />
      <input type="hidden" name="updated_at" value={topic.updatedAt} />
      <label>
        Name
        <input
          id={`${id}-name`}
          name="name"
          defaultValue={values.name}
          key={`name-${key}`}
          maxLength={TOPIC_NAME_MAX}
          required
        />
      </label>
      <label>
        Address
        <input
          name="slug"
          defaultValue={values.slug}
          key={`slug-${key}`}
          maxLength={MAX_SLUG_LENGTH}
          pattern="[a-z0-9]+(-[a-z0-9]+)*"
          required
        />
        <span className="hint">Changing it makes the old address redirect here.</span>
      </label>
      <label>
        Introduction
        <textarea
          name="intro"
          defaultValue={values.intro}
          key={`intro-${key}`}
          rows={3}
          maxLength={TOPIC_INTRO_MAX}
        />
        <span className="hint">Markdown, shown above the topic's posts.</span>
      </label>
      <button type="submit" disabled={pending}>
        Save topic
      </button>
      {state.error ? (
        <span className="form-error" role="alert">
          {state.error}
        </span>
      ) : null}
    </form>
  );
}
