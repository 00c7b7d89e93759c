// A page's body with its listing directives (content/listing-directive.ts) in place: the
// newest published posts, of one topic, one author or all, rendered here on the server. A
// directive that asks for something wrong (or a topic or author visitors cannot see) is nothing
// on the public page and a message in the editors' preview, which says what to fix.
import { Fragment } from 'react';
import { contentStore, type PageView, type PostSummary } from '../lib/content/content';
import { formatDay } from '../lib/content/dates';
import { type ListingDirective, splitAtDirectives } from '../lib/content/listing-directive';
import { resolveListing } from '../lib/content/listings';
import { publicPath } from '../lib/http/routes';
import { Byline, type BylineLink } from './byline';

async function DirectiveListing({
  directive,
  source,
  preview,
  pathOf,
}: {
  directive: ListingDirective;
  source: string;
  preview: boolean;
  pathOf: (slug: string) => `/${string}`;
}) {
  const listing = await resolveListing(directive);
  if ('problem' in listing)
    return preview ? <ListingProblem source={source} problem={listing.problem} /> : null;
  return <DirectiveListingView posts={listing.posts} pathOf={pathOf} />;
}

/** The posts a directive lists (nothing for none); live-listings.ts writes the same HTML. */
export function DirectiveListingView({
  posts,
  pathOf,
}: {
  posts: readonly PostSummary[];
  pathOf: (slug: string) => `/${string}`;
}) {
  if (posts.length === 0) return null;
  return (
    <ul className="directive-listing">
      {posts.map((post) => (
        <li key={post.slug}>
          <a href={pathOf(post.slug)}>{post.title}</a>{' '}
          <time dateTime={post.firstPublishedAt.slice(0, 10)}>
            {formatDay(post.firstPublishedAt)}
          </time>
          {post.authors.length > 0 ? (
            <>
              {' '}
              <Byline authors={post.authors.map((a) => ({ name: a.name, path: pathOf(a.slug) }))} />
            </>
          ) : null}
          {post.summary ? <span className="summary">{post.summary}</span> : null}
        </li>
      ))}
    </ul>
  );
}

/** Why a directive shows nothing to visitors (the editors' preview only). */
export function ListingProblem({ source, problem }: { source: string; problem: string }) {
  return (
    <p className="listing-problem" role="note">
      This listing is not shown to visitors: {problem} (<code>{source}</code>)
    </p>
  );
}

/** A post's topics as its date line links them (Article `topics`); none for a page. */
export async function topicLinksOf(
  page: Pick<PageView, 'kind' | 'topicIds'>,
  pathOf: (slug: string) => `/${string}` = publicPath,
): Promise<{ name: string; path: string }[]> {
  if (page.kind !== 'post' || page.topicIds.length === 0) return [];
  const topics = await contentStore().topicsByIds(page.topicIds);
  return topics.map((topic) => ({ name: topic.name, path: pathOf(topic.slug) }));
}

/** A post's authors as its byline links them; none for a page. */
export async function authorLinksOf(
  page: Pick<PageView, 'kind' | 'authorIds'>,
  pathOf: (slug: string) => `/${string}` = publicPath,
): Promise<BylineLink[]> {
  if (page.kind !== 'post' || page.authorIds.length === 0) return [];
  const authors = await contentStore().bylinesByIds(page.authorIds);
  return authors.map((author) => ({ name: author.name, path: pathOf(author.slug) }));
}

/** `html` (sanitised at save time) with its listings; `preview` shows what is wrong with one. */
export function ArticleBody({
  html,
  preview = false,
  pathOf = publicPath,
}: {
  html: string;
  preview?: boolean;
  pathOf?: (slug: string) => `/${string}`;
}) {
  const parts = splitAtDirectives(html);
  // No directive: the stored HTML as it always was (byte for byte: the preview is the site).
  if (parts.every((part) => 'html' in part))
    // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised at save time
    return <div dangerouslySetInnerHTML={{ __html: html }} />;
  return (
    <div>
      {parts.map((part, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one stored text, in order
        <Fragment key={index}>
          {'html' in part ? (
            // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised at save time
            <div className="body-part" dangerouslySetInnerHTML={{ __html: part.html }} />
          ) : 'problem' in part ? (
            preview ? (
              <ListingProblem source={part.source} problem={part.problem} />
            ) : null
          ) : (
            <DirectiveListing
              directive={part.directive}
              source={part.source}
              preview={preview}
              pathOf={pathOf}
            />
          )}
        </Fragment>
      ))}
    </div>
  );
}
