// Owns what a listing directive (listing-directive.ts) lists: the newest published posts of
// one topic, one author or all, or the words for why it lists nothing. One lookup for the
// page's render (components/article-body.tsx) and the editor's live pane
// (editor/live-listings.ts), so the live pane never shows what the page would not.
import 'server-only';
import { contentStore } from './content';
import type { ListingDirective } from './listing-directive';
import type { PostSummary } from './types';

/** The posts a directive lists (published only), or why it cannot list any. */
export async function resolveListing(
  directive: ListingDirective,
): Promise<{ problem: string } | { posts: PostSummary[] }> {
  const store = contentStore();
  const topic = directive.topic === null ? null : await store.getPublicTopic(directive.topic);
  if (directive.topic !== null && !topic)
    return { problem: `No topic with published posts is at /${directive.topic}.` };
  const author = directive.author === null ? null : await store.getPublicAuthor(directive.author);
  if (directive.author !== null && !author)
    return { problem: `No author with published posts is at /${directive.author}.` };
  const listing = await store.listPosts(
    1,
    topic ? { topicId: topic.id } : author ? { authorId: author.id } : null,
  );
  return { posts: (listing?.posts ?? []).slice(0, directive.limit) };
}
