import type { PageView, SiteSettings } from '../lib/content/content';
import { ogLocaleOf } from '../lib/content/settings';
import { publicPageUrl } from '../lib/http/site-url';
import { shareImagesOf } from '../lib/social-card/page-share-image';
import type { ShareImage } from '../lib/social-card/share-image';
import type { BylineLink } from './byline';
import { JsonLd } from './json-ld';

type Props = {
  title: string;
  description: string;
  path: string;
  /** The site's title from Site settings: the browser's tab, search results and share cards
   * name the site by it, never by "Folio" unless the owner chose that (issue 27). */
  siteTitle: string;
  noindex?: boolean;
  /** A published page (never a draft: this is what visitors and crawlers read) and the
   * settings: its share image, locale and structured data. */
  page?: PageView;
  settings?: SiteSettings;
  /** A post's byline: the Article's `author`, each a Person with their page. */
  authors?: readonly BylineLink[];
};

// Title, description, canonical URL and Open Graph tags; React 19 hoists them into <head>.
// og:url only with SITE_URL: it must be absolute, and a cached page may not name the host of
// whoever asked first (docs/decisions/0012). The share image follows the same rule: absolute
// with SITE_URL, else its path (docs/decisions/0034).
export async function PageMeta(props: Props) {
  const { path, siteTitle, page, settings, authors = [] } = props;
  // A page's own search and sharing fields (published with its text) stand in for its title
  // and summary here; the site's name is still appended to the <title> (issue 27).
  const seo = page?.seo;
  const title = seo?.title || props.title;
  const description = seo?.description || props.description;
  const noindex = props.noindex === true || seo?.noindex === true;
  const url = publicPageUrl(path);
  const canonical = seo?.canonical
    ? seo.canonical.startsWith('/')
      ? publicPageUrl(seo.canonical).href
      : seo.canonical
    : url.href;
  const fullTitle = `${title} · ${siteTitle}`;
  const image = page && settings ? await shareImageOf(page, settings, title) : null;
  const imageUrl = image ? publicPageUrl(image.path).href : null;
  const locale = settings ? ogLocaleOf(settings.language) : null;
  return (
    <>
      <title>{fullTitle}</title>
      <meta name="description" content={description} />
      <link rel="canonical" href={canonical} />
      <meta property="og:type" content={path === '/' ? 'website' : 'article'} />
      <meta property="og:site_name" content={siteTitle} />
      <meta property="og:title" content={title} />
      <meta property="og:description" content={description} />
      {url.absolute ? <meta property="og:url" content={url.href} /> : null}
      {locale ? <meta property="og:locale" content={locale} /> : null}
      {image && imageUrl ? (
        <>
          <meta property="og:image" content={imageUrl} />
          <meta property="og:image:width" content={String(image.width)} />
          <meta property="og:image:height" content={String(image.height)} />
          <meta property="og:image:alt" content={image.alt} />
        </>
      ) : null}
      <meta name="twitter:card" content={image ? 'summary_large_image' : 'summary'} />
      {noindex ? <meta name="robots" content="noindex" /> : null}
      {page && settings ? (
        <StructuredData
          page={page}
          settings={settings}
          path={path}
          imageUrl={imageUrl}
          description={description}
          authors={authors}
        />
      ) : null}
    </>
  );
}

/** The page's share image (social-card/page-share-image.ts has the rule). */
async function shareImageOf(
  page: PageView,
  settings: SiteSettings,
  title: string,
): Promise<ShareImage> {
  const shared = { ...page, publishedAt: page.publishedAt ?? page.updatedAt };
  const [image] = await shareImagesOf([{ page: shared, title }], settings);
  if (!image) throw new Error('shareImagesOf returned no image');
  return image;
}

/** schema.org: the home page is the WebSite (with its search); any other page an Article. */
function StructuredData({
  page,
  settings,
  path,
  imageUrl,
  description,
  authors,
}: {
  authors: readonly BylineLink[];
  page: PageView;
  settings: SiteSettings;
  path: string;
  imageUrl: string | null;
  description: string;
}) {
  const home = publicPageUrl('/').href;
  if (path === '/')
    return (
      <JsonLd
        data={{
          '@type': 'WebSite',
          name: settings.title,
          url: home,
          inLanguage: settings.language,
          potentialAction: {
            '@type': 'SearchAction',
            target: publicPageUrl('/?q={search_term_string}').href,
            'query-input': 'required name=search_term_string',
          },
        }}
      />
    );
  const url = publicPageUrl(path).href;
  return (
    <>
      <JsonLd
        data={{
          '@type': 'Article',
          headline: page.title,
          description,
          url,
          mainEntityOfPage: url,
          inLanguage: settings.language,
          datePublished: page.firstPublishedAt ?? page.publishedAt,
          dateModified: page.publishedAt,
          ...(imageUrl ? { image: imageUrl } : {}),
          ...(authors.length > 0
            ? {
                author: authors.map((author) => ({
                  '@type': 'Person',
                  name: author.name,
                  url: publicPageUrl(author.path).href,
                })),
              }
            : {}),
          publisher: { '@type': 'Organization', name: settings.title, url: home },
        }}
      />
      <JsonLd
        data={{
          '@type': 'BreadcrumbList',
          itemListElement: [
            { '@type': 'ListItem', position: 1, name: settings.title, item: home },
            { '@type': 'ListItem', position: 2, name: page.title, item: url },
          ],
        }}
      />
    </>
  );
}

/**
 * Structured data for a page that lists posts rather than being one (a topic's, an author's):
 * what it is (a collection; a person's profile) and the trail site → it (hostile pass: topic
 * and author pages carried none).
 */
export function ListingJsonLd({
  kind,
  name,
  path,
  siteTitle,
  description,
}: {
  kind: 'topic' | 'author';
  name: string;
  path: `/${string}`;
  siteTitle: string;
  description: string;
}) {
  const home = publicPageUrl('/').href;
  const url = publicPageUrl(path).href;
  return (
    <>
      <JsonLd
        data={
          kind === 'topic'
            ? { '@type': 'CollectionPage', name, description, url }
            : {
                '@type': 'ProfilePage',
                url,
                mainEntity: { '@type': 'Person', name, description, url },
              }
        }
      />
      <JsonLd
        data={{
          '@type': 'BreadcrumbList',
          itemListElement: [
            { '@type': 'ListItem', position: 1, name: siteTitle, item: home },
            { '@type': 'ListItem', position: 2, name, item: url },
          ],
        }}
      />
    </>
  );
}
