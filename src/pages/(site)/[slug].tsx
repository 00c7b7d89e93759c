import type { PageProps } from 'waku/router';
import { unstable_notFound as notFound, unstable_redirect as redirect } from 'waku/router/server';
import { Article, datesOf } from '../../components/article';
import { PageMeta } from '../../components/page-meta';
import { contentStore } from '../../lib/content/content';
import { markPublicPageRendered } from '../../lib/http/request-context';
import { HOME_SLUG, isValidSlug } from '../../lib/http/routes';

export default async function ContentPage({ slug }: PageProps<'/[slug]'>) {
  // Invalid slugs never reach the database: they are a plain 404.
  if (!isValidSlug(slug)) notFound();
  if (slug === HOME_SLUG) redirect('/', 308);
  const store = contentStore();
  const [page, settings] = await Promise.all([
    store.getPage(slug, { draft: false }),
    store.getSiteSettings(),
  ]);
  if (!page) {
    // Full page loads of a renamed slug get a 301 from the canonical middleware first; this
    // covers client navigation, where Waku only offers 307/308.
    const current = await store.findRedirect(slug);
    if (current) redirect(`/${current}`, 308);
    notFound();
  }
  markPublicPageRendered(page.slug);
  return (
    <>
      <PageMeta
        title={page.title}
        description={page.summary}
        path={`/${page.slug}`}
        siteTitle={settings.title}
        page={page}
        settings={settings}
      />
      <Article page={page} dates={datesOf(page)} />
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
