import { publicPageUrl } from '../lib/http/site-url';

type Props = {
  title: string;
  description: string;
  path: string;
  /** The site's title from Site settings: the browser's tab, search results and share cards
   * name the site by it, never by "Folio" unless the owner chose that (issue 27). */
  siteTitle: string;
  noindex?: boolean;
};

// Title, description, canonical URL and Open Graph tags; React 19 hoists them into <head>.
// og:url only with SITE_URL: it must be absolute, and a cached page may not name the host of
// whoever asked first (docs/decisions/0012).
export function PageMeta({ title, description, path, siteTitle, noindex = false }: Props) {
  const url = publicPageUrl(path);
  const fullTitle = `${title} · ${siteTitle}`;
  return (
    <>
      <title>{fullTitle}</title>
      <meta name="description" content={description} />
      <link rel="canonical" href={url.href} />
      <meta property="og:type" content={path === '/' ? 'website' : 'article'} />
      <meta property="og:site_name" content={siteTitle} />
      <meta property="og:title" content={title} />
      <meta property="og:description" content={description} />
      {url.absolute ? <meta property="og:url" content={url.href} /> : null}
      <meta name="twitter:card" content="summary" />
      {noindex ? <meta name="robots" content="noindex" /> : null}
    </>
  );
}
