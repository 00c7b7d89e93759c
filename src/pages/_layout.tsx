import '../styles/global.css';
import type { ReactNode } from 'react';
import { SiteHeader } from '../components/site-header';
import { contentStore } from '../lib/content';

export default async function Layout({ children }: { children: ReactNode }) {
  const pages = contentStore().listPublished();
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
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
