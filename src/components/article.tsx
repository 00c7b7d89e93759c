import type { ReactNode } from 'react';
import type { PageView } from '../lib/content/content';
import { formatDay } from '../lib/content/dates';

// bodyHtml was rendered from Markdown at save time by src/lib/markdown/markdown.ts, which escapes raw
// HTML and refuses unsafe link schemes, so it is safe to insert as-is.
export function Article({
  page,
  dates,
  body,
}: {
  page: Pick<PageView, 'title' | 'summary' | 'bodyHtml'>;
  /** In place of the body's HTML: the editor's live preview, which updates it in place. */
  body?: ReactNode;
  /** When it was first published and last updated; "Updated" only on a later day. */
  dates?: { published: string; updated: string | null };
}) {
  const published = dates ? formatDay(dates.published) : '';
  const updated = dates?.updated ? formatDay(dates.updated) : '';
  return (
    <article className="prose">
      <h1>{page.title}</h1>
      {page.summary ? <p className="lede">{page.summary}</p> : null}
      {published ? (
        <p className="dates">
          Published <time dateTime={dates?.published}>{published}</time>
          {updated && updated !== published ? (
            <>
              {' · Updated '}
              <time dateTime={dates?.updated ?? undefined}>{updated}</time>
            </>
          ) : null}
        </p>
      ) : null}
      {body ?? (
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised at save time
        <div dangerouslySetInnerHTML={{ __html: page.bodyHtml }} />
      )}
    </article>
  );
}
