import type { NavigationLink } from '../lib/content/content';
import { FolioLink as Link } from './folio-link';
import { HeaderSearch } from './header-search';

// Server component: the site's name and the header navigation the editors chose (site
// settings). Each link is a small client leaf that routes on the client, prefetches its page
// data near the viewport, and marks the current page (aria-current).
//
// More links than fit a phone's width fold into a "Menu" (a <details>, so it opens without
// JavaScript) on narrow screens; site.css shows one list or the other, never both.
//
// The search box (header-search.tsx) searches the published site (`/?q=`), from every page.

/** Above this many links, phones get the folded menu. */
export const COMPACT_MENU_AFTER = 4;
export function SiteHeader({
  title,
  tagline,
  home,
  links,
}: {
  title: string;
  tagline: string;
  /** The home page's address: `/`, or its preview. */
  home: `/${string}`;
  /** Each with the address it leads to (public, or the page's preview). */
  links: readonly (NavigationLink & { path: `/${string}` })[];
}) {
  const compact = links.length > COMPACT_MENU_AFTER;
  return (
    <header className="site-header">
      <nav aria-label="Site" className="container nav" data-compact={compact || undefined}>
        <Link to={home} className="brand">
          {title}
        </Link>
        {tagline ? <span className="tagline">{tagline}</span> : null}
        <ul>
          {links.map((link) => (
            <li key={link.slug}>
              <Link to={link.path}>{link.title}</Link>
            </li>
          ))}
        </ul>
        {compact ? (
          <details className="nav-menu">
            <summary>Menu</summary>
            {/* Plain links: a second FolioLink to the same page, hidden, would tell the prefetch
                queue the page left the viewport and cancel the visible link's prefetch. A full
                load also closes the menu. */}
            <ul>
              {links.map((link) => (
                <li key={link.slug}>
                  <a href={link.path}>{link.title}</a>
                </li>
              ))}
            </ul>
          </details>
        ) : null}
        <HeaderSearch />
      </nav>
    </header>
  );
}
