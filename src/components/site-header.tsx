import type { NavigationLink } from '../lib/content';
import { FolioLink as Link } from './folio-link';

// Server component: the site's name and the header navigation the editors chose (site
// settings). Each link is a small client leaf that routes on the client, prefetches its page
// data near the viewport, and marks the current page (aria-current).
export function SiteHeader({
  title,
  tagline,
  links,
}: {
  title: string;
  tagline: string;
  links: readonly NavigationLink[];
}) {
  return (
    <header className="site-header">
      <nav aria-label="Site" className="container nav">
        <Link to="/" className="brand">
          {title}
        </Link>
        {tagline ? <span className="tagline">{tagline}</span> : null}
        <ul>
          {links.map((link) => (
            <li key={link.slug}>
              <Link to={`/${link.slug}`}>{link.title}</Link>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}
