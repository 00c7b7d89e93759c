// Owns /preview?topics: the topics by name, 50 at a time (searched by name or address: a site
// can have thousands — hostile pass 27 found the 1001st unreachable), each with how many
// published posts have it, its public address (while it has posts), and a form for its name,
// address and introduction (issue 27).
import 'server-only';
import { contentStore } from '../../../lib/content/content';
import {
  PREVIEW_DASHBOARD,
  previewPath,
  publicPath,
  TOPICS_SCREEN,
} from '../../../lib/http/routes';
import { TopicForm } from '../topic-form';
import type { ScreenProps } from './asked';

const NOTICES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    'topic-saved': 'Topic saved. Visitors see it on their next visit.',
  }),
);

export async function TopicsScreen({ asked: { notice, params } }: ScreenProps) {
  const find = (params.get('find') ?? '').slice(0, 200);
  const after = params.get('after')?.slice(0, 200) ?? null;
  const [{ rows: topics, next }, total] = await Promise.all([
    contentStore().listTopics({ find, after }),
    contentStore().countTopics(),
  ]);
  const more = next
    ? `${TOPICS_SCREEN}&${new URLSearchParams({ ...(find ? { find } : {}), after: next })}`
    : null;
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
      <p id="topics-list">{total === 1 ? '1 topic in all.' : `${total} topics in all.`}</p>
      <search>
        <form method="get" action={PREVIEW_DASHBOARD} className="inline-form">
          <input type="hidden" name="topics" value="" />
          <label>
            Find <input type="search" name="find" defaultValue={find} maxLength={200} />
          </label>{' '}
          <button type="submit">Show</button>
        </form>
      </search>
      {topics.length === 0 ? <p>{find || after ? 'No topic matches.' : 'No topics yet.'}</p> : null}
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
      {more ? (
        <nav className="pager" aria-label="More topics">
          <a href={more} rel="next">
            More topics
          </a>
        </nav>
      ) : null}
    </>
  );
}
