import { contentStore, type FeedEntry } from '../../lib/content/content';
import { isValidSlug } from '../../lib/content/slugs';
import { PUBLIC_CACHE_HEADERS, REVALIDATE_EACH_TIME } from '../../lib/http/cache-headers';
import { type BuiltFile, fileCache } from '../../lib/http/file-cache';
import { HOME_SLUG } from '../../lib/http/routes';
import { siteOrigin } from '../../lib/http/site-url';
import { escapeXml } from '../../lib/http/xml';

/** The feed of one topic: `/feed.xml?topic=<slug>` (linked from the topic's page). */
const TOPIC_PARAM = 'topic';
/** The feed of one author: `/feed.xml?author=<slug>` (linked from the author's page). */
const AUTHOR_PARAM = 'author';

/** How many pages the feed carries: feed readers poll it, so it stays small. */
const FEED_ENTRIES = 20;

/** Links and images in a page are site-relative; a feed reader needs them absolute. */
function absolutize(html: string, origin: string): string {
  return (
    html
      .replace(/\b(href|src)="\/(?!\/)/g, `$1="${origin}/`)
      // srcset lists addresses, each followed by its width: every one made absolute.
      .replace(/\bsrcset="([^"]*)"/g, (_, set: string) => {
        const absolute = set.replace(/(^|,\s*)\/(?!\/)/g, `$1${origin}/`);
        return `srcset="${absolute}"`;
      })
  );
}

/**
 * An entry's id must never change (RFC 4287 §4.2.6), also when the page is renamed: a tag URI
 * (RFC 4151) from the site's host, the day it was first published and the page's id, which is
 * never given to another page.
 */
function entryId(entry: FeedEntry, host: string): string {
  return `tag:${host},${entry.firstPublishedAt.slice(0, 10)}:page-${entry.id}`;
}

// An Atom feed (RFC 4287) of published posts (not pages: issue 27), newest first by first
// publish, each with an <author> per byline and a <category> per topic, with their full sanitised HTML
// (rendered and sanitised at save time, as on the page). Published revisions only: drafts are
// never read here. Built once per content version and origin (file-cache.ts), and cached by
// browsers and CDNs like the sitemap: feed readers poll, and one whose copy is current gets a
// 304 before anything is read.
// `?topic=<slug>` is one topic's posts; a topic visitors cannot see (none of its posts is
// published, or no such topic) is a 404, like its page. `?author=<slug>` likewise: an author
// with no published post has no feed, as they have no page.
export async function GET(request: Request): Promise<Response> {
  const origin = siteOrigin();
  const params = new URL(request.url).searchParams;
  const topic = params.get(TOPIC_PARAM);
  const author = params.get(AUTHOR_PARAM);
  if (topic !== null && author !== null)
    return new Response('A feed is of one topic or of one author, not both.\n', {
      status: 400,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
  const of: FeedOf =
    topic !== null
      ? { param: TOPIC_PARAM, slug: topic }
      : author !== null
        ? { param: AUTHOR_PARAM, slug: author }
        : null;
  if (of !== null && !isValidSlug(of.slug))
    return new Response('Not found\n', {
      status: 404,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
  const served = await fileCache().serve(
    request,
    of === null ? `feed ${origin}` : `feed ${origin} ${of.param} ${of.slug}`,
    () => buildFeed(origin, of),
    PUBLIC_CACHE_HEADERS,
    // A topic's or author's feed may be missing: looked at before any 304.
    { alwaysThere: of === null },
  );
  // A renamed topic's feed follows it, as its page does (hostile pass 27: subscribers of
  // ?topic=<old> got a 404), and so does an author's whose address changed. Looked up only for
  // a feed that is not there: no cost to the rest.
  if (served.status === 404 && of !== null) {
    const now =
      of.param === TOPIC_PARAM
        ? await contentStore().renamedTopicSlug(of.slug)
        : await contentStore().renamedAuthorSlug(of.slug);
    if (now !== null)
      return new Response(null, {
        status: 301,
        // Checked again each time, like a renamed page's 301: a rename can be undone.
        headers: {
          location: `/feed.xml?${of.param}=${encodeURIComponent(now)}`,
          'cache-control': REVALIDATE_EACH_TIME,
        },
      });
  }
  return served;
}

type FeedOf = { param: typeof TOPIC_PARAM | typeof AUTHOR_PARAM; slug: string } | null;

async function buildFeed(origin: string, of: FeedOf): Promise<BuiltFile> {
  const host = new URL(origin).hostname;
  const store = contentStore();
  // Whose posts, as visitors may see them: a name for the title, an id for the listing.
  const subject =
    of === null
      ? null
      : of.param === TOPIC_PARAM
        ? await store.getPublicTopic(of.slug)
        : await store.getPublicAuthor(of.slug);
  if (of !== null && !subject) return null;
  const [settings, entries] = await Promise.all([
    store.getSiteSettings(),
    store.feedPosts(
      FEED_ENTRIES,
      of === null || !subject
        ? null
        : of.param === TOPIC_PARAM
          ? { topicId: subject.id }
          : { authorId: subject.id },
    ),
  ]);
  const self =
    of && subject
      ? `${origin}/feed.xml?${of.param}=${encodeURIComponent(subject.slug)}`
      : `${origin}/feed.xml`;
  const page = subject ? `${origin}/${subject.slug}` : `${origin}/`;
  const updated = entries[0]?.publishedAt ?? new Date(0).toISOString();
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <title>${escapeXml(subject ? `${subject.name} · ${settings.title}` : settings.title)}</title>`,
    settings.tagline ? `  <subtitle>${escapeXml(settings.tagline)}</subtitle>` : '',
    `  <link rel="self" type="application/atom+xml" href="${escapeXml(self)}"/>`,
    `  <link rel="alternate" type="text/html" href="${escapeXml(page)}"/>`,
    `  <id>${escapeXml(page)}</id>`,
    `  <updated>${escapeXml(updated)}</updated>`,
    `  <author><name>${escapeXml(settings.title)}</name></author>`,
    '  <generator>Folio</generator>',
    ...entries.map((entry) => {
      const url = `${origin}${entry.slug === HOME_SLUG ? '/' : `/${entry.slug}`}`;
      return [
        '  <entry>',
        `    <title>${escapeXml(entry.title)}</title>`,
        `    <link rel="alternate" type="text/html" href="${escapeXml(url)}"/>`,
        `    <id>${escapeXml(entryId(entry, host))}</id>`,
        `    <published>${escapeXml(entry.firstPublishedAt)}</published>`,
        `    <updated>${escapeXml(entry.publishedAt)}</updated>`,
        entry.summary ? `    <summary>${escapeXml(entry.summary)}</summary>` : '',
        ...entry.authors.map(
          (a) =>
            `    <author><name>${escapeXml(a.name)}</name><uri>${escapeXml(`${origin}/${a.slug}`)}</uri></author>`,
        ),
        ...entry.topics.map(
          (t) =>
            `    <category term="${escapeXml(t.slug)}" label="${escapeXml(t.name)}" scheme="${escapeXml(`${origin}/`)}"/>`,
        ),
        `    <content type="html">${escapeXml(absolutize(entry.bodyHtml, origin))}</content>`,
        '  </entry>',
      ]
        .filter(Boolean)
        .join('\n');
    }),
    '</feed>',
  ];
  return {
    body: `${lines.filter(Boolean).join('\n')}\n`,
    contentType: 'application/atom+xml; charset=utf-8',
  };
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
