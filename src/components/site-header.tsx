import type { NavigationLink } from '../lib/content/content';
import { FolioLink as Link } from './folio-link';
import { HeaderSearch } from './header-search';
import { MenuLink } from './menu-link';

// Server component: the site's name and the header's menu the editors chose (the menus
// screen). A page's link is a small client leaf that routes on the client, prefetches its page
// data near the viewport, and marks the current page (aria-current); an external link is a
// plain link (rel="noopener", same tab).
//
// The header keeps one height whatever the menu holds (issue 27): the row shows the first links
// that fit a width budget (counted in characters here, so it works without JavaScript and never
// changes between pages), the rest fold into "More" (a <details>, so it opens without
// JavaScript). On narrow screens, more links than fit a phone's row fold into one "Menu"
// instead; site.css shows the row and "More", or "Menu", never both.
//
// The search box (header-search.tsx) searches the published site (`/?q=`), from every page.

/** Above this many links, or more than PHONE_ROWS rows of PHONE_ROW, phones get the folded menu. */
export const COMPACT_MENU_AFTER = 4;
const PHONE_ROW = 40;
const PHONE_ROWS = 2;
/*
 * The 1280 px header in `widthOf` units (about 8.3 px, an average letter of a link), measured
 * in Chromium on the demo: its column holds 84; the site's name (1.2rem, bold) costs 1.2 a
 * letter, the tagline (0.9rem) 0.9; a gap between items is 2.4, between links 2; "More" 7. The
 * links stand in one line (site.css) after the name and tagline when they fit there, else on
 * the second line beside the search box, which leaves them 48. The demo's four links (53.5)
 * fit the first line with a letter to spare, as they did before menus had labels.
 */
const COLUMN = 84;
const SECOND_LINE = 48;
const ITEM_GAP = 2.4;
const MORE = 7;
/** What each gap between two links costs, in the same units. */
const GAP = 2;

/** A label's width in letters: CJK and other wide characters count twice, capitals a bit more. */
export function widthOf(label: string): number {
  let width = 0;
  for (const char of label) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0x1100 && (code <= 0x115f || (code >= 0x2e80 && code <= 0xffdc) || code >= 0x1f300))
      width += 2;
    else if (/[A-Z]/.test(char)) width += 1.3;
    else width += 1;
  }
  return width;
}

/** Whether a phone's header folds the links into "Menu": too many, or too wide for its rows. */
export function foldsOnPhones(titles: readonly string[]): boolean {
  if (titles.length > COMPACT_MENU_AFTER) return true;
  let rows = 1;
  let used = 0;
  for (const title of titles) {
    const width = widthOf(title) + GAP;
    if (used > 0 && used + width > PHONE_ROW) {
      rows += 1;
      used = 0;
    }
    used += width;
  }
  return rows > PHONE_ROWS || used > PHONE_ROW;
}

/** How many of the links the row shows (the rest go into "More"), beside this name and tagline. */
export function rowLinkCount(
  titles: readonly string[],
  { title, tagline }: { title: string; tagline: string },
): number {
  const firstLine =
    COLUMN - 1.2 * widthOf(title) - ITEM_GAP - (tagline ? 0.9 * widthOf(tagline) + ITEM_GAP : 0);
  const room = Math.max(firstLine, SECOND_LINE);
  const widths = titles.map(widthOf);
  const all = widths.reduce((sum, width) => sum + width, 0) + GAP * (widths.length - 1);
  if (all <= room) return titles.length;
  // Room for "More" itself, then as many as fit, and always the first.
  let used = MORE;
  let count = 0;
  for (const width of widths) {
    used += width + GAP;
    if (used > room && count > 0) break;
    count += 1;
  }
  return count;
}

type HeaderLink = NavigationLink & { path: `/${string}` | null };

/**
 * One link: a page of the site, or an external address. `prefetch`: a FolioLink (the row's
 * and "More"'s, which never name the same page twice, so one's leaving the viewport cannot
 * cancel the other's prefetch); else a MenuLink, outside the prefetch queue.
 */
function MenuItem({
  link,
  prefetch,
  plain,
}: {
  link: HeaderLink;
  prefetch?: boolean;
  plain?: boolean;
}) {
  if (link.path === null)
    return (
      <a href={link.href} rel="noopener">
        {link.title}
      </a>
    );
  if (prefetch) return <Link to={link.path}>{link.title}</Link>;
  return (
    <MenuLink to={link.path} plain={plain}>
      {link.title}
    </MenuLink>
  );
}

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
  /** Each with the address it leads to: a page's (public, or its preview), or null for a link
   * elsewhere (its `href`). */
  links: readonly HeaderLink[];
}) {
  const titles = links.map((link) => link.title);
  const compact = foldsOnPhones(titles);
  const inRow = rowLinkCount(titles, { title, tagline });
  const key = (link: HeaderLink, index: number) => `${index}:${link.path ?? link.href}`;
  return (
    <header className="site-header">
      <nav aria-label="Site" className="container nav" data-compact={compact || undefined}>
        <Link to={home} className="brand">
          {title}
        </Link>
        {tagline ? <span className="tagline">{tagline}</span> : null}
        <ul>
          {links.slice(0, inRow).map((link, index) => (
            <li key={key(link, index)}>
              <MenuItem link={link} prefetch />
            </li>
          ))}
        </ul>
        {inRow < links.length ? (
          <details className="nav-more">
            <summary>More</summary>
            <ul>
              {links.slice(inRow).map((link, index) => (
                <li key={key(link, index + inRow)}>
                  <MenuItem link={link} prefetch />
                </li>
              ))}
            </ul>
          </details>
        ) : null}
        {compact ? (
          <details className="nav-menu">
            <summary>Menu</summary>
            {/* Plain links: a second FolioLink to the same page, hidden, would tell the prefetch
                queue the page left the viewport and cancel the visible link's prefetch. A full
                load also closes the menu. */}
            <ul>
              {links.map((link, index) => (
                <li key={key(link, index)}>
                  <MenuItem link={link} plain />
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
