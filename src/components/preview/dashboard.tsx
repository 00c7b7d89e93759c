// The editors' dashboard at /preview: every page with its state, last change and who made it;
// search, filter and sort are a GET form, so they work without JavaScript and can be bookmarked.
import type { PageListing, PageState } from '../../lib/content/content';
import { formatUtc } from '../../lib/content/dates';
import { previewPath, publicPath } from '../../lib/http/routes';
import { LocalTime } from './local-time';

const STATE_TEXT: Record<PageState, string> = {
  published: 'Published',
  changed: 'Published, with a draft',
  'draft-only': 'Draft only',
};

const CHANGE_TEXT: Record<PageListing['lastChange'], string> = {
  saved: 'saved',
  published: 'published',
  unpublished: 'unpublished',
  discarded: 'draft discarded',
  renamed: 'renamed',
  restored: 'restored from history',
};

export type DashboardQuery = {
  q: string;
  state: PageState | 'scheduled' | 'all';
  sort: 'changed' | 'title';
};

/** The query a dashboard URL asks for; anything unknown falls back to the defaults. */
export function dashboardQuery(params: URLSearchParams): DashboardQuery {
  const state = params.get('state');
  return {
    q: (params.get('q') ?? '').slice(0, 100),
    state:
      state === 'published' ||
      state === 'changed' ||
      state === 'draft-only' ||
      state === 'scheduled'
        ? state
        : 'all',
    sort: params.get('sort') === 'title' ? 'title' : 'changed',
  };
}

export function selectPages(pages: readonly PageListing[], query: DashboardQuery): PageListing[] {
  const needle = query.q.trim().toLowerCase();
  return pages
    .filter(
      (page) =>
        query.state === 'all' ||
        page.state === query.state ||
        (query.state === 'scheduled' && page.publishAt !== null),
    )
    .filter(
      (page) =>
        needle === '' || page.title.toLowerCase().includes(needle) || page.slug.includes(needle),
    )
    .sort((a, b) =>
      query.sort === 'title'
        ? a.title.localeCompare(b.title)
        : b.updatedAt.localeCompare(a.updatedAt) || a.slug.localeCompare(b.slug),
    );
}

export function Dashboard({
  pages,
  query,
}: {
  pages: readonly PageListing[];
  query: DashboardQuery;
}) {
  const shown = selectPages(pages, query);
  const counts = {
    all: pages.length,
    published: pages.filter((page) => page.state === 'published').length,
    changed: pages.filter((page) => page.state === 'changed').length,
    'draft-only': pages.filter((page) => page.state === 'draft-only').length,
    scheduled: pages.filter((page) => page.publishAt !== null).length,
  };
  return (
    <section className="dashboard" aria-labelledby="dashboard-title">
      <div className="dashboard-head">
        <h1 id="dashboard-title">Pages</h1>
        <p className="dashboard-links">
          <a className="button primary" href="/preview?new">
            New page
          </a>{' '}
          <a href="/preview?settings">Site settings</a>
        </p>
      </div>
      <search>
        <form method="get" action="/preview" className="dashboard-filters">
          <label>
            Search
            <input type="search" name="q" defaultValue={query.q} placeholder="Title or address" />
          </label>
          <label>
            State
            <select name="state" defaultValue={query.state}>
              <option value="all">All ({counts.all})</option>
              <option value="published">Published ({counts.published})</option>
              <option value="changed">With a draft ({counts.changed})</option>
              <option value="draft-only">Draft only ({counts['draft-only']})</option>
              <option value="scheduled">Scheduled ({counts.scheduled})</option>
            </select>
          </label>
          <label>
            Sort
            <select name="sort" defaultValue={query.sort}>
              <option value="changed">Last change first</option>
              <option value="title">Title</option>
            </select>
          </label>
          <button type="submit">Show</button>
        </form>
      </search>
      <p className="dashboard-count" role="status">
        {shown.length === pages.length
          ? `${pages.length} pages`
          : `${shown.length} of ${pages.length} pages`}
      </p>
      {shown.length === 0 ? (
        <p>
          No page matches. <a href="/preview">Show every page</a>
        </p>
      ) : (
        <table className="page-table">
          <thead>
            <tr>
              <th scope="col">Page</th>
              <th scope="col">State</th>
              <th scope="col">Last change</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((page) => (
              <tr key={page.id}>
                <td>
                  <a href={previewPath(page.slug)}>{page.title}</a>
                  <br />
                  <code>{publicPath(page.slug)}</code>
                </td>
                <td data-state={page.state}>
                  {STATE_TEXT[page.state]}
                  {page.publishAt ? (
                    <>
                      <br />
                      <small className="scheduled">
                        To be published <LocalTime iso={page.publishAt} />
                      </small>
                    </>
                  ) : null}
                  {page.missedPublishAt ? (
                    <>
                      <br />
                      <small className="missed-schedule">
                        Not published as scheduled for <LocalTime iso={page.missedPublishAt} />:
                        open the page for why
                      </small>
                    </>
                  ) : null}
                </td>
                <td>
                  <time dateTime={page.updatedAt}>{formatUtc(page.updatedAt)}</time>
                  <br />
                  <small>
                    {CHANGE_TEXT[page.lastChange]}
                    {page.updatedBy ? ` by ${page.updatedBy}` : ''}
                  </small>
                </td>
                <td className="row-actions">
                  <a href={`${previewPath(page.slug)}?edit`} aria-label={`Edit ${page.title}`}>
                    Edit
                  </a>{' '}
                  {page.state === 'draft-only' ? null : (
                    <a
                      href={publicPath(page.slug)}
                      aria-label={`View ${page.title} as visitors see it`}
                    >
                      View
                    </a>
                  )}{' '}
                  <a
                    href={`${previewPath(page.slug)}?history`}
                    aria-label={`History of ${page.title}`}
                  >
                    History
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
