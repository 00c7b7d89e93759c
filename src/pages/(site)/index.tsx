import { Article } from '../../components/article';
import { PageMeta } from '../../components/page-meta';
import { SearchPage } from '../../components/search-results';
import { contentStore } from '../../lib/content/content';
import { publicParams } from '../../lib/http/public-params';
import { markPublicPageRendered } from '../../lib/http/request-context';
import { HOME_SLUG } from '../../lib/http/routes';

export default async function HomePage() {
  const store = contentStore();
  // `/?q=`: the site's search (issue 27), never cached, never the home page.
  const { q, page: resultPage } = publicParams();
  if (q !== null) {
    const settings = await store.getSiteSettings();
    return <SearchPage q={q} page={resultPage} siteTitle={settings.title} />;
  }
  const [page, settings] = await Promise.all([
    store.getPage(HOME_SLUG, { draft: false }),
    store.getSiteSettings(),
  ]);
  // `/` is a real page even before anything is published.
  markPublicPageRendered(HOME_SLUG);
  if (!page) {
    return (
      <>
        <PageMeta
          title="Welcome"
          description="Nothing has been published yet."
          path="/"
          siteTitle={settings.title}
        />
        <p>Nothing has been published yet.</p>
      </>
    );
  }
  return (
    <>
      <PageMeta title={page.title} description={page.summary} path="/" siteTitle={settings.title} />
      <Article page={page} />
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
