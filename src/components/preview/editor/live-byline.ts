// Owns the byline and topics the live pane shows above a post (issue 27's leftovers): what the
// saved preview shows (article-body.tsx authorLinksOf, topicLinksOf), made from the fields as
// typed, so the pane follows the Topics and Authors fields before a save. A page shows neither.
// Browser-safe.
import { parseTopicNames, topicSlugFromName } from '../../../lib/content/post-fields';
import { previewPath } from '../../../lib/http/routes';
import type { BylineLink } from '../../byline';

type Typed = { kind: string; topics: string; authors: string };

/** The post's authors (checked, in order) and topics (as typed, valid ones) as links. */
export function liveBylineOf(
  values: Typed,
  authorChoices: readonly { slug: string; name: string }[],
): { authors: BylineLink[]; topics: { name: string; path: string }[] } {
  if (values.kind !== 'post') return { authors: [], topics: [] };
  const named = new Map(authorChoices.map((author) => [author.slug, author.name]));
  const authors = values.authors
    .split(' ')
    .filter((slug, index, all) => named.has(slug) && all.indexOf(slug) === index)
    .map((slug) => ({ name: named.get(slug) ?? slug, path: previewPath(slug) }));
  // A field the save would refuse (a name too long, too many) shows no topics yet: its error
  // says why when saved.
  const parsed = parseTopicNames(values.topics);
  const names = 'names' in parsed ? parsed.names : [];
  // The same topic whatever its accents or case (Café, cafe): one link, as the save keeps one.
  const seen = new Set<string>();
  const topics = names.flatMap((name) => {
    const slug = topicSlugFromName(name);
    if (seen.has(slug)) return [];
    seen.add(slug);
    return [{ name, path: previewPath(slug) }];
  });
  return { authors, topics };
}
