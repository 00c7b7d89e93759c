import type { ReactNode } from 'react';
import { contentStore, type NavigationLink, type SiteSettings } from '../lib/content/content';
import { HOME_SLUG, publicPath } from '../lib/http/routes';
import { SiteHeader } from './site-header';

// Owns the public site's frame — the header with the site's name and navigation, the reading
// column, the footer — for the public layout and for every preview of a page alike, so a
// preview is the site (issue 26): one component, so the two cannot drift apart. What differs
// is only where the header's links lead (`pathOf`). The editor's live pane takes the header and
// footer alone: its column is not the document's <main> (one per document, the skip link's).

export type SiteFrameData = { settings: SiteSettings; links: readonly NavigationLink[] };

/**
 * The settings and the header's links. `draft` (editors only, never a public page or a share
 * link): the links' titles are their pages' drafts', as they will be once published.
 */
export async function siteFrameData({ draft }: { draft: boolean }): Promise<SiteFrameData> {
  const store = contentStore();
  const [settings, links] = await Promise.all([
    store.getSiteSettings(),
    store.navigation({ draft }),
  ]);
  return { settings, links };
}

export function SiteFrame({
  settings,
  links,
  pathOf = publicPath,
  children,
}: SiteFrameData & {
  /** Where a page's link leads: its public address, or its preview. */
  pathOf?: (slug: string) => `/${string}`;
  children: ReactNode;
}) {
  return (
    <>
      <SiteFrameHeader settings={settings} links={links} pathOf={pathOf} />
      <main id="main" className="container">
        {children}
      </main>
      <SiteFooter settings={settings} />
    </>
  );
}

/** The header as SiteFrame shows it, alone: for the editor's live pane (page-editor.tsx). */
export function SiteFrameHeader({
  settings,
  links,
  pathOf,
}: SiteFrameData & { pathOf: (slug: string) => `/${string}` }) {
  return (
    <SiteHeader
      title={settings.title}
      tagline={settings.tagline}
      home={pathOf(HOME_SLUG)}
      links={links.map((link) => ({ ...link, path: pathOf(link.slug) }))}
    />
  );
}

/** The footer: the settings' line, the feed and the sitemap (public addresses everywhere). */
export function SiteFooter({ settings }: { settings: SiteSettings }) {
  return (
    <footer className="site-footer container">
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
