// The editors' dashboard at /preview: one page of pages (keyset-paged, issue 25) with state,
// last change and who made it; search, filter, sort and the pager are GET addresses, so they
// work without JavaScript and can be bookmarked; with it, the list follows the typing
// (dashboard-filters.tsx).

import type {
  PageListing,
  PageListQuery,
  PageListResult,
  PageState,
} from '../../lib/content/content';
import {
  COUNT_LIMIT,
  dashboardSearch,
  listFilterOf,
  parseCursor,
  searchIsWordless,
} from '../../lib/content/page-list-params';
import { type Action, can, type Person } from '../../lib/editors/permissions';
import {
  dashboardPath,
  NAVIGATION_SCREEN,
  PREVIEW_DASHBOARD,
  previewPath,
  publicPath,
  REDIRECTS_SCREEN,
} from '../../lib/http/routes';
import { DashboardFilters } from './dashboard-filters';
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

export type DashboardQuery = PageListQuery;

/** The query a dashboard URL asks for; anything unknown falls back to the defaults. */
export function dashboardQuery(params: URLSearchParams): DashboardQuery {
  return {
    ...listFilterOf(params),
    cursor:
      parseCursor('after', params.get('after')) ?? parseCursor('before', params.get('before')),
  };
}

const countText = ({ n, exact }: PageListResult['matching']) =>
  n > COUNT_LIMIT ? `more than ${COUNT_LIMIT}` : exact ? String(n) : `at least ${n}`;

export function Dashboard({
  list,
  query,
  person,
}: {
  list: PageListResult;
  query: DashboardQuery;
  /** Who is looking: links to screens their role does not open are left out (issue 28). */
  person: Person | null;
}) {
  const may = (action: Action) => person !== null && can(person, action);
  const { rows: shown, counts } = list;
  const filtered = query.state !== 'all' || query.q.trim() !== '';
  const [previousText, nextText] =
    query.sort === 'changed' ? ['Newer', 'Older'] : ['Previous page', 'Next page'];
  return (
    <section className="dashboard" aria-labelledby="dashboard-title">
      <div className="dashboard-head">
        <h1 id="dashboard-title">Pages</h1>
        <p className="dashboard-links">
          <a className="button primary" href="/preview?new">
            New page
          </a>{' '}
          {may('settings.edit') ? (
            <>
              <a href="/preview?settings">Site settings</a> · <a href={NAVIGATION_SCREEN}>Menus</a>
            </>
          ) : null}
          {may('settings.edit') && may('redirect.edit') ? ' · ' : null}
          {may('redirect.edit') ? <a href={REDIRECTS_SCREEN}>Redirects</a> : null}
        </p>
      </div>
      <search>
        <DashboardFilters
          filter={{ q: query.q, state: query.state, sort: query.sort }}
          counts={counts}
        />
      </search>
      {/* Announced when the list changes as the editor types (dashboard-filters.tsx). */}
      <p className="dashboard-count" id="dashboard-results" role="status">
        {!filtered
          ? `${counts.all} pages`
          : list.matching.n === 0
            ? `No pages match, of ${counts.all}`
            : `${countText(list.matching)} of ${counts.all} pages`}
        {searchIsWordless(query.q)
          ? `: search looks for words and numbers, and “${query.q.trim()}” has none`
          : ''}
      </p>
      {shown.length === 0 && query.cursor ? (
        // A cursor past the list's end (a bookmark kept while pages were deleted, a hand-made
        // address): the count above is right, and says nothing is shown here.
        <p className="dashboard-past-end">
          Nothing more in this list.{' '}
          <a href={dashboardPath(dashboardSearch({ ...query, cursor: null }))}>
            Back to its first page
          </a>
        </p>
      ) : shown.length === 0 ? (
        <p>
          <a href={PREVIEW_DASHBOARD}>Show every page</a>
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
                  {page.kind ? (
                    <small className="page-kind"> · {page.kind === 'post' ? 'Post' : 'Page'}</small>
                  ) : null}
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
                  <LocalTime iso={page.updatedAt} />
                  <br />
                  <small>
                    {CHANGE_TEXT[page.lastChange]}
                    {page.updatedBy ? ` by ${page.updatedBy}` : ''}
                  </small>
                </td>
                <td className="row-actions">
                  {/* Asked with the page, as its editor does (hostile pass 2: a Contributor was
                      offered Edit on a page that is nobody's own). */}
                  {person !== null &&
                  can(person, 'page.edit', {
                    ownerId: page.ownerId ?? null,
                    published: page.state !== 'draft-only',
                  }) ? (
                    <a href={`${previewPath(page.slug)}?edit`} aria-label={`Edit ${page.title}`}>
                      Edit
                    </a>
                  ) : null}{' '}
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
      {list.previous || list.next ? (
        <nav className="pager" aria-label="More pages">
          {list.previous ? (
            <a
              href={dashboardPath(dashboardSearch({ ...query, cursor: list.previous }))}
              rel="prev"
            >
              {previousText}
            </a>
          ) : null}{' '}
          {list.next ? (
            <a href={dashboardPath(dashboardSearch({ ...query, cursor: list.next }))} rel="next">
              {nextText}
            </a>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}
