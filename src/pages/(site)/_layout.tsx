import type { ReactNode } from 'react';
import { SiteHeader } from '../../components/site-header';
import { contentStore } from '../../lib/content/content';

// The public site's frame: the site's name, the navigation the editors chose (published pages
// only), and the footer. Site settings change the content version, like a publish, so cached
// pages show a change on the next request.
export default async function SiteLayout({ children }: { children: ReactNode }) {
  const store = contentStore();
  const [settings, links] = await Promise.all([store.getSiteSettings(), store.navigation()]);
  return (
    <>
      {/* React hoists it into <head>: feed readers find the feed from any page. */}
      <link rel="alternate" type="application/atom+xml" title={settings.title} href="/feed.xml" />
      <SiteHeader title={settings.title} tagline={settings.tagline} links={links} />
      <main id="main" className="container">
        {children}
      </main>
      <footer className="site-footer container">
        <p>
          {settings.footer ? `${settings.footer} · ` : ''}
          <a href="/feed.xml">Feed</a> · <a href="/sitemap.xml">Sitemap</a>
        </p>
      </footer>
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
