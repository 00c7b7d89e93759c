// Owns /preview?topics: every topic with how many published posts have it, its public address
// (while it has posts), and a form for its name, address and introduction (issue 27).
import 'server-only';
import { contentStore } from '../../../lib/content/content';
import { TOPICS_LISTED_MAX } from '../../../lib/content/topics';
import { previewPath, publicPath } from '../../../lib/http/routes';
import { TopicForm } from '../topic-form';
import type { ScreenProps } from './asked';

const NOTICES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    'topic-saved': 'Topic saved. Visitors see it on their next visit.',
  }),
);

export async function TopicsScreen({ asked: { notice } }: ScreenProps) {
  const topics = await contentStore().listTopics();
  const noticeText = notice ? NOTICES.get(notice) : undefined;
  return (
    <>
      <title>Topics · Folio preview</title>
      <h1>Topics</h1>
      {noticeText ? (
        <p role="status" className="notice">
          {noticeText}
        </p>
      ) : null}
      <p>
        Tag a post with topics in its editor. A topic has a page of its own, listing its posts,
        while at least one published post has it.
      </p>
      {topics.length === 0 ? <p>No topics yet.</p> : null}
      {topics.length >= TOPICS_LISTED_MAX ? (
        <p>The first {TOPICS_LISTED_MAX} topics by name are listed.</p>
      ) : null}
      <ul className="topic-list">
        {topics.map((topic) => (
          <li key={topic.id}>
            <h2>{topic.name}</h2>
            <p>
              {topic.posts === 1 ? '1 published post' : `${topic.posts} published posts`}
              {topic.posts > 0 ? (
                <>
                  {' · '}
                  <a href={publicPath(topic.slug)}>{publicPath(topic.slug)}</a>
                </>
              ) : (
                ': not shown to visitors'
              )}
              {/* Its page as it looks now (its introduction as saved), public or not yet. */}
              {' · '}
              <a href={previewPath(topic.slug)}>
                Preview its page<span className="visually-hidden">: {topic.name}</span>
              </a>
            </p>
            <TopicForm
              topic={{
                id: topic.id,
                name: topic.name,
                slug: topic.slug,
                intro: topic.intro,
                updatedAt: topic.updatedAt,
              }}
            />
          </li>
        ))}
      </ul>
    </>
  );
}
