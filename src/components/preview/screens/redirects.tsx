// Owns /preview?redirects: the editors' redirects (issue 27) — a form to add one, the list
// (50 at a time in address order, searched by address or target: a site moved from another
// can bring thousands), and beside it the redirects renamed pages make by themselves.
import 'server-only';
import { contentStore } from '../../../lib/content/content';
import { PREVIEW_DASHBOARD, REDIRECTS_SCREEN } from '../../../lib/http/routes';
import { LocalTime } from '../local-time';
import { RedirectForm, RemoveRedirectButton } from '../redirect-form';
import type { ScreenProps } from './asked';

/** Fixed words for fixed keys: a crafted ?notice= shows nothing. */
const NOTICES: Record<string, string> = {
  'redirect-added': 'Redirect added. Visitors are sent on from their next visit.',
  'redirect-removed': 'Redirect removed.',
  'redirect-gone': 'That redirect had already been removed.',
};

export async function RedirectsScreen({ asked: { notice, params } }: ScreenProps) {
  const find = (params.get('find') ?? '').slice(0, 200);
  const after = params.get('after')?.slice(0, 600) ?? null;
  const store = contentStore();
  const [list, renames] = await Promise.all([
    store.listRedirects({ find, after }),
    store.listRenameRedirects(),
  ]);
  const text = notice === null ? undefined : NOTICES[notice];
  const more = list.next
    ? `${REDIRECTS_SCREEN}&${new URLSearchParams({ ...(find ? { find } : {}), after: list.next })}`
    : null;
  return (
    <>
      <title>Redirects · Folio preview</title>
      <h1>Redirects</h1>
      {text ? (
        <p role="status" className="notice">
          {text}
        </p>
      ) : null}
      <p>
        <a href={PREVIEW_DASHBOARD}>Back to the pages</a>
      </p>
      <p>
        Send visitors who ask for an old address — a post from an earlier site, a page you deleted —
        to a page of this site or to another site. A page at the address always wins, and a redirect
        cannot lead to another redirect. From the command line: <code>bun run folio redirect</code>{' '}
        (and <code>import</code>/<code>export</code> as CSV).
      </p>
      <h2>Add a redirect</h2>
      <RedirectForm />
      <h2 id="redirects-list">
        Redirects <small>({list.total})</small>
      </h2>
      <search>
        <form method="get" action={PREVIEW_DASHBOARD} className="inline-form">
          <input type="hidden" name="redirects" value="" />
          <label>
            Find <input type="search" name="find" defaultValue={find} maxLength={200} />
          </label>{' '}
          <button type="submit">Show</button>
        </form>
      </search>
      {list.rows.length === 0 ? (
        <p>{find || after ? 'No redirect matches.' : 'No redirects yet.'}</p>
      ) : (
        <table className="page-table redirects-table">
          <thead>
            <tr>
              <th scope="col">From</th>
              <th scope="col">To</th>
              <th scope="col">Kind</th>
              <th scope="col">Added</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.rows.map((row) => (
              <tr key={row.from}>
                <td>
                  <code>{row.from}</code>
                </td>
                <td>
                  <code>{row.to}</code>
                  {row.unpublishedTarget ? (
                    // Unpublished since it was made: visitors sent there land on a 404.
                    <p className="redirect-unpublished" role="note">
                      <strong>Not published:</strong> {row.unpublishedTarget}
                    </p>
                  ) : null}
                  {row.chainedTo ? (
                    // Its target was renamed since: visitors go through two redirects.
                    <p className="redirect-unpublished" role="note">
                      <strong>Renamed:</strong> {row.to} now redirects to{' '}
                      <code>{row.chainedTo}</code>; visitors go through two redirects. Remove this
                      redirect and add it again with <code>{row.chainedTo}</code> as its target.
                    </p>
                  ) : null}
                </td>
                <td>{row.status === 301 ? 'Permanent' : 'Temporary'}</td>
                <td>
                  <LocalTime iso={row.createdAt} />
                  {row.createdBy ? (
                    <>
                      <br />
                      <small>by {row.createdBy}</small>
                    </>
                  ) : null}
                </td>
                <td className="row-actions">
                  <RemoveRedirectButton from={row.from} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {more ? (
        <nav className="pager" aria-label="More redirects">
          <a href={more} rel="next">
            More redirects
          </a>
        </nav>
      ) : null}
      <h2>From renamed pages and topics</h2>
      <p>
        The old addresses of renamed pages and topics send visitors on by themselves (permanent), as
        long as no page takes them. The newest {renames.length === 0 ? '' : renames.length}:
      </p>
      {renames.length === 0 ? (
        <p>No page has been renamed.</p>
      ) : (
        <ul className="rename-redirects">
          {renames.map((row) => (
            <li key={row.from}>
              <code>{row.from}</code> → <code>{row.to}</code>, renamed{' '}
              <LocalTime iso={row.renamedAt} />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
