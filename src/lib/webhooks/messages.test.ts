// What each content event becomes as a webhook (decision 0046), on a real database through the
// content store: first publish `page.published`, a publish of a page that is out `page.updated`,
// a rename of a published page `page.updated`, of a draft nothing; after an unpublish the next
// publish is `page.published` again; the body carries the published title, never a draft's.
import { afterEach, expect, test } from 'bun:test';
import { openTestDatabase } from '../../../tests/databases';
import { createContentStore } from '../content/content';
import type { ContentEvent } from '../content/events';
import { messageOf } from './messages';

const opened: Awaited<ReturnType<typeof openTestDatabase>>[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.dispose();
});

test('content events map to webhook events, with published content only', async () => {
  const db = await openTestDatabase();
  opened.push(db);
  const store = createContentStore(db);
  const seen: ContentEvent[] = [];
  store.subscribeToEvents((event) => {
    seen.push(event);
  });
  const page = { summary: '', body: 'Out there' };
  await store.putPage({ slug: 'news', title: 'News', ...page }, { publish: true });
  await store.putPage({ slug: 'news', title: 'SECRET DRAFT TITLE', summary: '', body: 'SECRET' });
  await store.putPage({ slug: 'notes', title: 'Notes', ...page });
  await store.renameSlug('notes', 'jottings');
  await store.renameSlug('news', 'headlines');
  await store.publish('headlines');
  await store.unpublish('headlines');
  await store.publish('headlines');
  await store.dispatchEvents();

  const messages = [];
  for (const event of seen) messages.push(await messageOf(db.query, event));
  const shown = messages.map((message) =>
    message === null ? null : [message.type, JSON.parse(message.body).data.page?.title],
  );
  expect(shown).toEqual([
    ['page.published', 'News'],
    // The draft's rename: nothing for visitors.
    null,
    ['page.updated', 'News'],
    ['page.updated', 'SECRET DRAFT TITLE'],
    ['page.unpublished', 'SECRET DRAFT TITLE'],
    ['page.published', 'SECRET DRAFT TITLE'],
  ]);
  // The title published is public from then on; the draft's text never is.
  for (const message of messages) expect(message?.body ?? '').not.toContain('SECRET"');
  const rename = JSON.parse(messages[2]?.body ?? '{}');
  expect(rename.data).toMatchObject({
    previousSlug: 'news',
    page: { slug: 'headlines', url: '/headlines' },
  });
  expect(rename.data.eventId).toBe(seen[2]?.id);
  expect(messages[0]?.pageKey).toBe(seen[0]?.pageId ?? -1);
});
