import type { ReactNode } from 'react';
import { contentStore, type NavigationLink, type SiteSettings } from '../lib/content/content';
import { HOME_SLUG, publicPath } from '../lib/http/routes';
import { MenuLink } from './menu-link';
import { SiteHeader } from './site-header';

// Owns the public site's frame — the header with the site's name and menu, the reading
// column, the footer with its menu — for the public layout and for every preview of a page alike, so a
// preview is the site (issue 26): one component, so the two cannot drift apart. What differs
// is only where the header's links lead (`pathOf`). The editor's live pane takes the header and
// footer alone: its column is not the document's <main> (one per document, the skip link's).

export type SiteFrameData = {
  settings: SiteSettings;
  /** The header's menu and the footer's (navigation-menus.ts), as visitors see them. */
  links: readonly NavigationLink[];
  footerLinks: readonly NavigationLink[];
};

/**
 * The settings and the menus' links. `draft` (editors only, never a public page or a share
 * link): the links' titles are their pages' drafts', as they will be once published.
 */
export async function siteFrameData({ draft }: { draft: boolean }): Promise<SiteFrameData> {
  const store = contentStore();
  const [settings, menus] = await Promise.all([store.getSiteSettings(), store.menus({ draft })]);
  return { settings, links: menus.header, footerLinks: menus.footer };
}

type PathOf = (slug: string) => `/${string}`;

export function SiteFrame({
  settings,
  links,
  footerLinks,
  pathOf = publicPath,
  children,
}: SiteFrameData & {
  /** Where a page's link leads: its public address, or its preview. */
  pathOf?: PathOf;
  children: ReactNode;
}) {
  return (
    <>
      <SiteFrameHeader settings={settings} links={links} pathOf={pathOf} />
      <main id="main" className="container">
        {children}
      </main>
      <SiteFooter settings={settings} footerLinks={footerLinks} pathOf={pathOf} />
    </>
  );
}

/** The header as SiteFrame shows it, alone: for the editor's live pane (page-editor.tsx). */
export function SiteFrameHeader({
  settings,
  links,
  pathOf,
}: Omit<SiteFrameData, 'footerLinks'> & { pathOf: PathOf }) {
  return (
    <SiteHeader
      title={settings.title}
      tagline={settings.tagline}
      home={pathOf(HOME_SLUG)}
      links={links.map((link) => ({
        ...link,
        path: link.slug === undefined ? null : pathOf(link.slug),
      }))}
    />
  );
}

/**
 * The footer: the footer's menu (its pages where `pathOf` leads, external links as they are),
 * then the settings' line, the feed and the sitemap (public addresses everywhere).
 */
export function SiteFooter({
  settings,
  footerLinks,
  pathOf = publicPath,
}: Omit<SiteFrameData, 'links'> & { pathOf?: PathOf }) {
  return (
    <footer className="site-footer container">
      {footerLinks.length > 0 ? (
        <nav aria-label="Footer" className="footer-menu">
          <ul>
            {footerLinks.map((link) => (
              // A page is in a menu once; a link twice would be a typing slip, listed twice.
              <li key={link.slug ?? `${link.href} ${link.title}`}>
                {link.slug === undefined ? (
                  <a href={link.href} rel="noopener">
                    {link.title}
                  </a>
                ) : (
                  <MenuLink to={pathOf(link.slug)}>{link.title}</MenuLink>
                )}
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <p>
        {settings.footer ? `${settings.footer} · ` : ''}
        <a href="/feed.xml">Feed</a> · <a href="/sitemap.xml">Sitemap</a>
      </p>
    </footer>
  );
}

/**
 * The site's accent colour (Site settings) as site.css's `--accent`: as chosen on the light
 * background; on the dark one mixed with white, so a dark blue stays readable as a link there.
 * The colour is validated as #rrggbb (settings.ts) before it is stored.
 */
export function accentStyle(accent: string): string {
  return `:root{--accent:${accent}}@media (prefers-color-scheme: dark){:root{--accent:color-mix(in oklab,${accent} 45%,#fff)}}`;
}
