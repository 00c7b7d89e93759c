import { siteUrlFor } from '../lib/site-url';

type Props = { title: string; description: string; path: string; noindex?: boolean };

// Title, description, canonical URL and Open Graph tags; React 19 hoists them into <head>.
export function PageMeta({ title, description, path, noindex = false }: Props) {
  const url = siteUrlFor(path);
  const fullTitle = `${title} · Folio`;
  return (
    <>
      <title>{fullTitle}</title>
      <meta name="description" content={description} />
      <link rel="canonical" href={url} />
      <meta property="og:type" content={path === '/' ? 'website' : 'article'} />
      <meta property="og:site_name" content="Folio" />
      <meta property="og:title" content={title} />
      <meta property="og:description" content={description} />
      <meta property="og:url" content={url} />
      <meta name="twitter:card" content="summary" />
      {noindex ? <meta name="robots" content="noindex" /> : null}
    </>
  );
}
