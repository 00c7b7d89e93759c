// Owns what the content API says of each thing (docs/decisions/0044): a post or page, a
// topic, an author and the site, as JSON, from what the public site shows of them — its
// published text, its byline and topics (a post's only, as on its page), its share image,
// and the search fields visitors' software reads. Never an editor's email, a draft, a
// schedule, who changed what, or a setting only editors see.
import 'server-only';
import type { ApiAuthorRow, ApiTopicRow, PublishedItem } from '../content/api-reads';
import type { ContentStore } from '../content/content';
import { splitAtDirectives } from '../content/listing-directive';
import { HOME_SLUG } from '../content/slugs';
import type { SiteSettings } from '../content/types';
import { mediaStore } from '../media/media';
import { shareImagesOf } from '../social-card/page-share-image';
import { libraryImage } from '../social-card/share-image';
import { API_PREFIX } from './params';

type Link = { slug: string; name: string; url: string; api: string };
export type ApiImage = { url: string; width: number; height: number; alt: string };

export type ApiItem = {
  slug: string;
  kind: 'post' | 'page';
  url: string;
  api: string;
  title: string;
  summary: string;
  html: string;
  published_at: string;
  updated_at: string;
  authors: Link[];
  topics: Link[];
  image: ApiImage & { generated: boolean };
  seo: {
    title: string;
    description: string;
    canonical: string;
    hidden_from_search_engines: boolean;
  };
};

const pagePath = (slug: string) => (slug === HOME_SLUG ? '/' : `/${slug}`);

/**
 * The page's HTML as its page shows it: the stored, sanitised HTML, with a listing directive's
 * paragraph left out (the page renders the newest posts there; the API lists them at /posts).
 */
export function publishedHtml(bodyHtml: string): string {
  const parts = splitAtDirectives(bodyHtml);
  return parts.every((part) => 'html' in part)
    ? bodyHtml
    : parts.map((part) => ('html' in part ? part.html : '')).join('');
}

/** Posts and pages as JSON; their topics, bylines and share images read once for all. */
export async function itemsJson(
  items: readonly PublishedItem[],
  { store, settings, origin }: { store: ContentStore; settings: SiteSettings; origin: string },
): Promise<ApiItem[]> {
  const posts = items.filter((item) => item.kind === 'post');
  const [topics, authors, images] = await Promise.all([
    store.topicsByIds([...new Set(posts.flatMap((item) => item.topicIds))]),
    store.bylinesByIds([...new Set(posts.flatMap((item) => item.authorIds))]),
    shareImagesOf(
      items.map((item) => ({ page: item, title: item.seo.title || item.title })),
      settings,
    ),
  ]);
  const topicById = new Map(topics.map((topic) => [topic.id, topic]));
  const authorById = new Map(authors.map((author) => [author.id, author]));
  const link = (kind: 'topics' | 'authors', slug: string, name: string): Link => ({
    slug,
    name,
    url: `${origin}/${slug}`,
    api: `${origin}${API_PREFIX}/${kind}/${slug}`,
  });
  return items.map((item, index) => {
    const image = images[index];
    const collection = item.kind === 'post' ? 'posts' : 'pages';
    return {
      slug: item.slug,
      kind: item.kind,
      url: `${origin}${pagePath(item.slug)}`,
      api: `${origin}${API_PREFIX}/${collection}/${item.slug}`,
      title: item.title,
      summary: item.summary,
      html: publishedHtml(item.bodyHtml),
      published_at: item.firstPublishedAt,
      updated_at: item.publishedAt,
      authors:
        item.kind === 'post'
          ? item.authorIds.flatMap((id) => {
              const author = authorById.get(id);
              return author ? [link('authors', author.slug, author.name)] : [];
            })
          : [],
      topics:
        item.kind === 'post'
          ? item.topicIds.flatMap((id) => {
              const topic = topicById.get(id);
              return topic ? [link('topics', topic.slug, topic.name)] : [];
            })
          : [],
      image: {
        url: `${origin}${image?.path ?? ''}`,
        width: image?.width ?? 0,
        height: image?.height ?? 0,
        alt: image?.alt ?? '',
        generated: image?.generated ?? true,
      },
      seo: {
        title: item.seo.title,
        description: item.seo.description,
        canonical: item.seo.canonical.startsWith('/')
          ? `${origin}${item.seo.canonical}`
          : item.seo.canonical,
        hidden_from_search_engines: item.seo.noindex,
      },
    };
  });
}

export function topicJson(topic: ApiTopicRow, origin: string) {
  return {
    slug: topic.slug,
    name: topic.name,
    url: `${origin}/${topic.slug}`,
    api: `${origin}${API_PREFIX}/topics/${topic.slug}`,
    posts: `${origin}${API_PREFIX}/posts?topic=${topic.slug}`,
    introduction_html: topic.introHtml,
  };
}

/** Authors as JSON, their photos read once for all. */
export async function authorsJson(authors: readonly ApiAuthorRow[], origin: string) {
  const hashes = [...new Set(authors.flatMap((author) => (author.photo ? [author.photo] : [])))];
  const library = hashes.length === 0 ? new Map() : await mediaStore().byHashes(hashes);
  return authors.map((author) => {
    const item = author.photo ? library.get(author.photo) : undefined;
    const photo = item ? libraryImage(item) : null;
    return {
      slug: author.slug,
      name: author.name,
      url: `${origin}/${author.slug}`,
      api: `${origin}${API_PREFIX}/authors/${author.slug}`,
      posts: `${origin}${API_PREFIX}/posts?author=${author.slug}`,
      bio: author.bio,
      photo: photo
        ? {
            url: `${origin}${photo.path}`,
            width: photo.width,
            height: photo.height,
            alt: photo.alt || author.name,
          }
        : null,
      links: author.links,
    };
  });
}

/** The site as visitors see it: what its pages' headers and <head> show. */
export async function siteJson(settings: SiteSettings, origin: string) {
  const icon = settings.favicon
    ? (await mediaStore().byHashes([settings.favicon])).get(settings.favicon)
    : undefined;
  const logo = icon ? libraryImage(icon) : null;
  return {
    title: settings.title,
    description: settings.tagline,
    language: settings.language,
    url: `${origin}/`,
    accent: settings.accent,
    logo: logo
      ? { url: `${origin}${logo.path}`, width: logo.width, height: logo.height, alt: logo.alt }
      : null,
    feed: `${origin}/feed.xml`,
    api: `${origin}${API_PREFIX}`,
  };
}
