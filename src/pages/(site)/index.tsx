import { unstable_notFound as notFound } from 'waku/router/server';
import { Article } from '../../components/article';
import { ArticleBody } from '../../components/article-body';
import { PageMeta } from '../../components/page-meta';
import { PostListing } from '../../components/post-listing';
import { SearchPage } from '../../components/search-results';
import { contentStore } from '../../lib/content/content';
import { publicParams } from '../../lib/http/public-params';
import { markPublicPageRendered } from '../../lib/http/request-context';
import { HOME_SLUG } from '../../lib/http/routes';

export default async function HomePage() {
  const store = contentStore();
  // `/?q=`: the site's search (issue 27), never cached, never the home page.
  const { q, page: pageNumber } = publicParams();
  if (q !== null) {
    const settings = await store.getSiteSettings();
    return <SearchPage q={q} page={pageNumber} siteTitle={settings.title} />;
  }
  const [page, settings] = await Promise.all([
    store.getPage(HOME_SLUG, { draft: false }),
    store.getSiteSettings(),
  ]);
  if (settings.homeShows === 'posts') {
    // Latest posts, the home page's text (when published) above them as an introduction.
    const listing = await store.listPosts(pageNumber);
    if (!listing || (listing.posts.length === 0 && pageNumber > 1)) notFound();
    markPublicPageRendered(HOME_SLUG);
    const title = page?.title ?? settings.title;
    return (
      <>
        <PageMeta
          title={pageNumber > 1 ? `${title}, page ${pageNumber}` : title}
          description={page?.summary || settings.tagline}
          path={pageNumber > 1 ? `/?page=${pageNumber}` : '/'}
          siteTitle={settings.title}
          page={page ?? undefined}
          settings={settings}
        />
        {page ? <Article page={page} body={<ArticleBody html={page.bodyHtml} />} /> : null}
        <div className={page ? 'prose home-listing' : 'prose'}>
          <PostListing listing={listing} path="/" label="Latest posts" />
        </div>
      </>
    );
  }
  // The home page's own text is one page: it lists nothing.
  if (pageNumber !== 1) notFound();
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
      <PageMeta
        title={page.title}
        description={page.summary}
        path="/"
        siteTitle={settings.title}
        page={page}
        settings={settings}
      />
      <Article page={page} body={<ArticleBody html={page.bodyHtml} />} />
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
