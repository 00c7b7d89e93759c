import { Link } from 'waku';
import { HOME_SLUG } from '../lib/slug';

type NavPage = { slug: string; title: string };

// Server component: the navigation is plain links; only Waku's Link makes them client-routed.
export function SiteHeader({ pages }: { pages: readonly NavPage[] }) {
  return (
    <header className="site-header">
      <nav aria-label="Site" className="container nav">
        <Link to="/" className="brand">
          Folio
        </Link>
        <ul>
          {pages
            .filter((page) => page.slug !== HOME_SLUG)
            .map((page) => (
              <li key={page.slug}>
                <Link to={`/${page.slug}`}>{page.title}</Link>
              </li>
            ))}
        </ul>
      </nav>
    </header>
  );
}
