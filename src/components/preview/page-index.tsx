import type { PageListing } from '../../lib/content';
import { formatUtc } from '../../lib/dates';
import { previewPath } from '../../lib/preview-paths';

const STATE_TEXT: Record<PageListing['state'], string> = {
  published: 'published',
  changed: 'published, with changes',
  'draft-only': 'draft only',
};

export function PageIndex({ pages }: { pages: readonly PageListing[] }) {
  return (
    <section className="page-index" aria-labelledby="all-pages">
      <h2 id="all-pages">All pages</h2>
      <p>
        <a href="/preview?new">New page</a>
      </p>
      <table>
        <thead>
          <tr>
            <th>Page</th>
            <th>State</th>
            <th>Last change</th>
          </tr>
        </thead>
        <tbody>
          {pages.map((page) => (
            <tr key={page.slug}>
              <td>
                <a href={previewPath(page.slug)}>{page.title}</a> <code>/{page.slug}</code>
              </td>
              <td data-state={page.state}>{STATE_TEXT[page.state]}</td>
              <td>
                {formatUtc(page.updatedAt)}
                {page.draftUpdatedBy ? ` by ${page.draftUpdatedBy}` : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
