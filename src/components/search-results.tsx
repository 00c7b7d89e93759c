import { contentStore } from '../lib/content/content';
import type { SearchResult, SearchResults } from '../lib/content/public-search';
import {
  PREFIX_MIN,
  parseSearch,
  RESULT_PAGES_MAX,
  RESULTS_PER_PAGE,
  SEARCH_TEXT_MAX,
  SEARCH_WORDS_MAX,
  type Segment,
} from '../lib/content/public-search-query';
import { markPrivate, setDocumentStatus } from '../lib/http/request-context';
import { publicPath } from '../lib/http/routes';
import { PageMeta } from './page-meta';

// Server component: `/?q=` (issue 27), the site's search for visitors, whole without
// JavaScript. Published pages only (public-search.ts), highlighted where they matched — the
// highlights are React <mark> elements made from the engine's markers, never page text as HTML.
// A result page is never indexed nor stored: `private, no-store` and `X-Robots-Tag: noindex`
// (markPrivate), so a CDN keeps no copy per query (a hostile crawl of queries fills nothing)
// and results follow a publish at once; the render cache never stores a search either.

const NOTICES = {
  words: `Search uses the first ${SEARCH_WORDS_MAX} words; the rest were left out.`,
  length: `Search reads the first ${SEARCH_TEXT_MAX} characters; the rest were left out.`,
} as const;

/** The address of page `page` of the results for `text`. */
function resultsHref(text: string, page: number): string {
  const params = new URLSearchParams({ q: text });
  if (page > 1) params.set('page', String(page));
  return `/?${params}`;
}

function Highlighted({ segments }: { segments: readonly Segment[] }) {
  return segments.map((segment, index) =>
    // Segments never move: their index is their identity.
    // biome-ignore lint/suspicious/noArrayIndexKey: see above
    segment.mark ? <mark key={index}>{segment.text}</mark> : segment.text,
  );
}

function Result({ result }: { result: SearchResult }) {
  const hasTitle = result.title.some((segment) => segment.text.trim() !== '');
  return (
    <li>
      <h2>
        <a href={publicPath(result.slug)}>
          {hasTitle ? <Highlighted segments={result.title} /> : publicPath(result.slug)}
        </a>
      </h2>
      {result.summary.length > 0 ? (
        <p className="search-summary">
          <Highlighted segments={result.summary} />
        </p>
      ) : null}
      {result.snippet.length > 0 ? (
        <p className="search-snippet">
          <Highlighted segments={result.snippet} />
        </p>
      ) : null}
    </li>
  );
}

function countLine({ count }: SearchResults): string {
  if (count.more) return `More than ${count.n.toLocaleString('en')} pages match.`;
  return count.n === 1 ? '1 page matches.' : `${count.n.toLocaleString('en')} pages match.`;
}

function SearchForm({ text }: { text: string }) {
  return (
    // A new search is a new form: the box holds what this page searched for.
    <search aria-label="Search again" className="search-form">
      <form key={text} method="get" action="/">
        <label htmlFor="search-q">Search this site</label>
        <div>
          <input
            id="search-q"
            type="search"
            name="q"
            defaultValue={text}
            enterKeyHint="search"
            maxLength={SEARCH_TEXT_MAX}
          />
          <button type="submit">Search</button>
        </div>
      </form>
    </search>
  );
}

export async function SearchPage({
  q,
  page,
  siteTitle,
}: {
  /** The `q` asked for, as typed (null never reaches here: that is the home page). */
  q: string;
  page: number;
  siteTitle: string;
}) {
  markPrivate();
  const search = parseSearch(q);
  const meta = (title: string) => (
    <PageMeta
      title={title}
      description={`Search ${siteTitle}.`}
      path="/"
      siteTitle={siteTitle}
      noindex
    />
  );
  const notice = search.cut ? <p className="search-notice">{NOTICES[search.cut]}</p> : null;

  if (search.terms.length === 0) {
    // Nothing typed: the form. Typed, but no letter or digit in it: nothing can match it.
    const unusable = search.text !== '';
    if (unusable) setDocumentStatus(400);
    return (
      <>
        {meta('Search')}
        <h1>Search</h1>
        <SearchForm text={search.text} />
        {unusable ? (
          <p className="search-empty">
            “{search.text}” holds no word to search for. Search finds words and numbers: try a word
            from the page you are looking for.
          </p>
        ) : (
          <p className="search-empty">
            Type a few words from the page you are looking for. “Quoted words” find a phrase.
          </p>
        )}
      </>
    );
  }

  const title = `Search: ${search.text}`;
  if (page > RESULT_PAGES_MAX) {
    setDocumentStatus(400);
    return (
      <>
        {meta(title)}
        <h1>Search</h1>
        <SearchForm text={search.text} />
        <p className="search-empty">
          Search shows the best {RESULT_PAGES_MAX * RESULTS_PER_PAGE} results. Add a word to find
          fewer, better ones.
        </p>
      </>
    );
  }

  const found = await contentStore().searchPublished(search, page);
  if (found.results.length === 0 && page > 1) setDocumentStatus(404);
  const several = search.terms.length > 1;
  return (
    <>
      {meta(title)}
      <h1>Search</h1>
      <SearchForm text={search.text} />
      {notice}
      {found.results.length === 0 ? (
        page > 1 ? (
          <p className="search-empty">
            No more results. <a href={resultsHref(search.text, 1)}>Back to the first ones</a>.
          </p>
        ) : (
          <div className="search-empty">
            <p>No page matches “{search.text}”.</p>
            <p>
              {several
                ? 'Try fewer words, or check their spelling.'
                : `Check the spelling, or try another word. A word of ${PREFIX_MIN} letters or more at the end also finds longer words that start with it.`}
            </p>
          </div>
        )
      ) : (
        <>
          <p className="search-count" aria-live="polite">
            {countLine(found)}
            {page > 1 ? ` Page ${page}.` : null}
          </p>
          <ol className="search-results" start={(page - 1) * RESULTS_PER_PAGE + 1}>
            {found.results.map((result) => (
              <Result key={result.slug} result={result} />
            ))}
          </ol>
          {page > 1 || found.hasNext ? (
            <nav aria-label="More results" className="search-pages">
              {page > 1 ? (
                <a rel="prev" href={resultsHref(search.text, page - 1)}>
                  Previous
                </a>
              ) : null}
              {found.hasNext ? (
                <a rel="next" href={resultsHref(search.text, page + 1)}>
                  Next
                </a>
              ) : null}
            </nav>
          ) : null}
        </>
      )}
    </>
  );
}
