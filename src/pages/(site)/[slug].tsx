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
    // An editor's redirect (the site-redirects middleware answers full loads): to a page of
    // this site the router follows; another site's address is offered as a link, since the
    // router only navigates on this one.
    const elsewhere = await store.findSiteRedirect(`/${slug}`);
    const internal = elsewhere?.location;
    if (internal?.startsWith('/')) redirect(internal as `/${string}`, 308);
    if (elsewhere) return <MovedElsewhere to={elsewhere.location} siteTitle={settings.title} />;
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
      />
      <Article page={page} dates={datesOf(page)} />
    </>
  );
}

function MovedElsewhere({ to, siteTitle }: { to: string; siteTitle: string }) {
  return (
    <>
      <PageMeta
        title="Moved"
        description="This page has moved to another site."
        path="/"
        siteTitle={siteTitle}
        noindex
      />
      <h1>This page has moved</h1>
      <p>
        It is now at <a href={to}>{to}</a>.
      </p>
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
