import type { ReactNode } from 'react';
import type { PageView } from '../lib/content/content';
import { formatDay } from '../lib/content/dates';
import { HOME_SLUG } from '../lib/content/slugs';
import { Byline, type BylineLink } from './byline';

/** An Article's date line: when the page was first published and last updated. */
export type ArticleDates = { published: string; updated: string | null };

/**
 * The date line a page gets on its public address (none on the home page, which is the site's
 * front rather than an article). `asWillBePublished` (its preview): a draft is shown as it will
 * read when published now — first published today if it never was, updated today.
 */
export function datesOf(
  page: Pick<PageView, 'slug' | 'firstPublishedAt' | 'publishedAt' | 'showingDraft'>,
  { asWillBePublished = false }: { asWillBePublished?: boolean } = {},
): ArticleDates | undefined {
  if (page.slug === HOME_SLUG) return undefined;
  if (asWillBePublished && (page.showingDraft || page.firstPublishedAt === null)) {
    const now = new Date().toISOString();
    return { published: page.firstPublishedAt ?? now, updated: now };
  }
  return page.firstPublishedAt
    ? { published: page.firstPublishedAt, updated: page.publishedAt }
    : undefined;
}

/**
 * The machine-readable form of the day shown (the UTC day, as formatDay shows it): a day, not
 * an instant, so a draft's preview reads as its page will once published, whatever the second
 * it is published at (the preview is byte-identical to the published page, issue 26).
 */
function utcDay(iso: string | null | undefined): string | undefined {
  if (!iso) return undefined;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString().slice(0, 10);
}

// bodyHtml was rendered from Markdown at save time by src/lib/markdown/markdown.ts, which escapes raw
// HTML and refuses unsafe link schemes, so it is safe to insert as-is.
export function Article({
  page,
  dates,
  body,
  topics = [],
  authors = [],
}: {
  /** A post's authors, each linking to their page (its byline). */
  authors?: readonly BylineLink[];
  /** A post's topics, each linking to its page (none for a page). */
  topics?: readonly { name: string; path: string }[];
  page: Pick<PageView, 'title' | 'summary' | 'bodyHtml'>;
  /** In place of the body's HTML: the editor's live preview, which updates it in place. */
  body?: ReactNode;
  /** When it was first published and last updated; "Updated" only on a later day. */
  dates?: ArticleDates | undefined;
}) {
  const published = dates ? formatDay(dates.published) : '';
  const updated = dates?.updated ? formatDay(dates.updated) : '';
  // A post's topics, on its date line: where a visitor finds the topics' pages.
  const topicLinks =
    topics.length === 0 ? null : (
      <span className="post-topics">
        {'In '}
        {topics.map((topic, index) => (
          <span key={topic.path}>
            {index > 0 ? ', ' : ''}
            <a href={topic.path}>{topic.name}</a>
          </span>
        ))}
      </span>
    );
  const byline = authors.length === 0 ? null : <Byline authors={authors} />;
  return (
    <article className="prose">
      <h1>{page.title}</h1>
      {page.summary ? <p className="lede">{page.summary}</p> : null}
      {published ? (
        <p className="dates">
          {byline ? <>{byline} · </> : null}
          Published <time dateTime={utcDay(dates?.published)}>{published}</time>
          {updated && updated !== published ? (
            <>
              {' · Updated '}
              <time dateTime={utcDay(dates?.updated)}>{updated}</time>
            </>
          ) : null}
          {topicLinks ? <> · {topicLinks}</> : null}
        </p>
      ) : null}
      {!published && (byline || topicLinks) ? (
        <p className="dates">
          {byline}
          {byline && topicLinks ? ' · ' : null}
          {topicLinks}
        </p>
      ) : null}
      {body ?? (
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised at save time
        <div dangerouslySetInnerHTML={{ __html: page.bodyHtml }} />
      )}
    </article>
  );
}
