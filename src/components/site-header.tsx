import { HOME_SLUG } from '../lib/slug';
import { FolioLink as Link } from './folio-link';

type NavPage = { slug: string; title: string };

// Server component; each link is a small client leaf that routes on the client and prefetches
// its page data when it comes near the viewport (src/components/folio-link.tsx).
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
