import type { PageView } from '../lib/content';

// bodyHtml was rendered from Markdown at save time by src/lib/markdown.ts, which escapes raw
// HTML and refuses unsafe link schemes, so it is safe to insert as-is.
export function Article({ page }: { page: Pick<PageView, 'title' | 'summary' | 'bodyHtml'> }) {
  return (
    <article className="prose">
      <h1>{page.title}</h1>
      {page.summary ? <p className="lede">{page.summary}</p> : null}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised at save time */}
      <div dangerouslySetInnerHTML={{ __html: page.bodyHtml }} />
    </article>
  );
}
