import type { AuthorProfile } from '../lib/content/authors';
import type { PostListingPage, Topic } from '../lib/content/content';
import { formatDay } from '../lib/content/dates';
import { withoutDirectives } from '../lib/content/listing-directive';
import { publicPath } from '../lib/http/routes';
import { Byline } from './byline';

/** `path` with `?page=n`; the first page is `path` itself (one address per page). */
function pageHref(path: string, page: number): string {
  return page <= 1 ? path : `${path}?page=${page}`;
}

/**
 * A page of published posts, newest first (the home page's latest posts, a topic's, an
 * author's): each post's linked title, its first image (when it has one), summary, byline and
 * first publish date, and links to the newer and older
 * pages. Server-rendered; no client JavaScript. `pathOf` says where a post's link leads (the
 * preview keeps editors in the preview).
 */
export function PostListing({
  listing,
  path,
  label,
  pathOf = publicPath,
}: {
  listing: PostListingPage;
  /** The listing's own address, for its page links. */
  path: string;
  /** What the list is, for assistive technology: "Latest posts", "Posts on Cooking". */
  label: string;
  pathOf?: (slug: string) => `/${string}`;
}) {
  return (
    <section className="post-listing" aria-label={label}>
      {listing.posts.length === 0 ? <p>Nothing has been published here yet.</p> : null}
      <ol>
        {listing.posts.map((post) => (
          <li key={post.slug}>
            <h2>
              <a href={pathOf(post.slug)}>{post.title}</a>
            </h2>
            {post.image ? (
              // The post's own first image: already named by its alt text in the post, so
              // here it is decoration beside the linked title.
              <img
                className="listing-image"
                src={post.image.path}
                alt=""
                width={post.image.width}
                height={post.image.height}
                loading="lazy"
                decoding="async"
              />
            ) : null}
            {post.summary ? <p>{post.summary}</p> : null}
            <p className="dates">
              {post.authors.length > 0 ? (
                <>
                  <Byline
                    authors={post.authors.map((a) => ({ name: a.name, path: pathOf(a.slug) }))}
                  />
                  {' · '}
                </>
              ) : null}
              <time dateTime={post.firstPublishedAt.slice(0, 10)}>
                {formatDay(post.firstPublishedAt)}
              </time>
            </p>
          </li>
        ))}
      </ol>
      {listing.page > 1 || listing.hasNext ? (
        <nav className="pages" aria-label={`${label}: more pages`}>
          {listing.page > 1 ? (
            <a href={pageHref(path, listing.page - 1)} rel="prev">
              ← Newer posts
            </a>
          ) : null}
          {listing.hasNext ? (
            <a href={pageHref(path, listing.page + 1)} rel="next">
              Older posts →
            </a>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}

/** A topic's page: its name, its introduction (Markdown, rendered at save time), its posts. */
export function TopicArticle({
  topic,
  listing,
  pathOf = publicPath,
}: {
  topic: Topic;
  listing: PostListingPage;
  pathOf?: (slug: string) => `/${string}`;
}) {
  return (
    <article className="prose">
      <h1>{topic.name}</h1>
      {topic.introHtml ? (
        // A listing line saved before the Topics screen refused them is left out, not printed
        // as typed (listing-directive.ts DIRECTIVE_NOT_IN_INTRODUCTION says why).
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised at save time
        <div dangerouslySetInnerHTML={{ __html: withoutDirectives(topic.introHtml) }} />
      ) : null}
      <PostListing
        listing={listing}
        path={pathOf(topic.slug)}
        label={`Posts on ${topic.name}`}
        pathOf={pathOf}
      />
    </article>
  );
}

/**
 * An author's page: their name, photo (the library's <picture>, made by the caller), bio and
 * links, then their published posts.
 */
export function AuthorArticle({
  author,
  photoHtml,
  listing,
  pathOf = publicPath,
}: {
  author: AuthorProfile;
  photoHtml: string | null;
  listing: PostListingPage;
  pathOf?: (slug: string) => `/${string}`;
}) {
  return (
    <article className="prose author">
      <h1>{author.name}</h1>
      {photoHtml ? (
        // biome-ignore lint/security/noDangerouslySetInnerHtml: made by pictureHtml, escaped
        <div className="author-photo" dangerouslySetInnerHTML={{ __html: photoHtml }} />
      ) : null}
      {author.bio ? <p className="author-bio">{author.bio}</p> : null}
      {author.links.length > 0 ? (
        <ul className="author-links">
          {author.links.map((link) => (
            <li key={link}>
              <a href={link} rel="me noopener">
                {link.replace(/^https?:\/\//, '')}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      <PostListing
        listing={listing}
        path={pathOf(author.slug)}
        label={`Posts by ${author.name}`}
        pathOf={pathOf}
      />
    </article>
  );
}

/** The feed of one author: its address, linked from the author's page. */
export function authorFeedPath(slug: string): string {
  return `/feed.xml?author=${encodeURIComponent(slug)}`;
}

/** The feed of one topic: its address, linked from the topic's page. */
export function topicFeedPath(slug: string): string {
  return `/feed.xml?topic=${encodeURIComponent(slug)}`;
}
