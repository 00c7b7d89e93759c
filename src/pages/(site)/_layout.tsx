import type { ReactNode } from 'react';
import { SiteHeader } from '../../components/site-header';
import { contentStore } from '../../lib/content';

// The public site's frame: navigation over published pages only.
export default async function SiteLayout({ children }: { children: ReactNode }) {
  const pages = contentStore().listPublished();
  return (
    <>
      <SiteHeader pages={pages} />
      <main id="main" className="container">
        {children}
      </main>
      <footer className="site-footer container">
        <p>
          Published with Folio · <a href="/sitemap.xml">Sitemap</a>
        </p>
      </footer>
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
