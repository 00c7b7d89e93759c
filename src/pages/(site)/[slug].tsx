import type { PageProps } from 'waku/router';
import { unstable_notFound as notFound, unstable_redirect as redirect } from 'waku/router/server';
import { Article, datesOf } from '../../components/article';
import { ArticleBody, authorLinksOf, topicLinksOf } from '../../components/article-body';
import { ListingJsonLd, PageMeta } from '../../components/page-meta';
import {
  AuthorArticle,
  authorFeedPath,
  TopicArticle,
  topicFeedPath,
} from '../../components/post-listing';
import { contentStore } from '../../lib/content/content';
import { publicParams } from '../../lib/http/public-params';
import { markPublicPageRendered } from '../../lib/http/request-context';
import { HOME_SLUG, isValidSlug } from '../../lib/http/routes';
import { mediaStore } from '../../lib/media/media';
import { pictureHtml } from '../../lib/media/media-refs';

export default async function ContentPage({ slug }: PageProps<'/[slug]'>) {
  // Invalid slugs never reach the database: they are a plain 404.
  if (!isValidSlug(slug)) notFound();
  if (slug === HOME_SLUG) redirect('/', 308);
  const store = contentStore();
  const { page: pageNumber } = publicParams();
  const [page, settings] = await Promise.all([
    store.getPage(slug, { draft: false }),
    store.getSiteSettings(),
  ]);
  if (page) {
    // A page lists nothing: its only page is the first.
    if (pageNumber !== 1) notFound();
    markPublicPageRendered(page.slug);
    const authors = await authorLinksOf(page);
    return (
      <>
        <PageMeta
          title={page.title}
          description={page.summary}
          path={`/${page.slug}`}
          siteTitle={settings.title}
          page={page}
          settings={settings}
          authors={authors}
        />
        <Article
          page={page}
          dates={datesOf(page)}
          body={<ArticleBody html={page.bodyHtml} />}
          topics={await topicLinksOf(page)}
          authors={authors}
        />
      </>
    );
  }
  // A topic is at its slug while a published post has it (pages and topics share addresses).
  const topic = await store.getPublicTopic(slug);
  if (topic) {
    const listing = await store.listPosts(pageNumber, { topicId: topic.id });
    // Past the last page (or beyond what a listing offers): not a page.
    if (!listing || (listing.posts.length === 0 && pageNumber > 1)) notFound();
    markPublicPageRendered(topic.slug);
    return (
      <>
        <PageMeta
          title={pageNumber > 1 ? `${topic.name}, page ${pageNumber}` : topic.name}
          description={`Posts on ${topic.name}`}
          path={pageNumber > 1 ? `/${topic.slug}?page=${pageNumber}` : `/${topic.slug}`}
          siteTitle={settings.title}
        />
        <link
          rel="alternate"
          type="application/atom+xml"
          title={`${topic.name} · ${settings.title}`}
          href={topicFeedPath(topic.slug)}
        />
        <ListingJsonLd
          kind="topic"
          name={topic.name}
          path={`/${topic.slug}`}
          siteTitle={settings.title}
          description={`Posts on ${topic.name}`}
        />
        <TopicArticle topic={topic} listing={listing} />
      </>
    );
  }
  // An author is at their slug while a published post names them (after pages and topics).
  const author = await store.getPublicAuthor(slug);
  if (author) {
    const listing = await store.listPosts(pageNumber, { authorId: author.id });
    if (!listing || (listing.posts.length === 0 && pageNumber > 1)) notFound();
    const photo = author.photo
      ? (await mediaStore().byHashes([author.photo])).get(author.photo)
      : null;
    markPublicPageRendered(author.slug);
    return (
      <>
        <PageMeta
          title={pageNumber > 1 ? `${author.name}, page ${pageNumber}` : author.name}
          description={author.bio || `Posts by ${author.name}`}
          path={pageNumber > 1 ? `/${author.slug}?page=${pageNumber}` : `/${author.slug}`}
          siteTitle={settings.title}
        />
        <link
          rel="alternate"
          type="application/atom+xml"
          title={`${author.name} · ${settings.title}`}
          href={authorFeedPath(author.slug)}
        />
        <ListingJsonLd
          kind="author"
          name={author.name}
          path={`/${author.slug}`}
          siteTitle={settings.title}
          description={author.bio || `Posts by ${author.name}`}
        />
        <AuthorArticle
          author={author}
          photoHtml={photo ? pictureHtml(photo, author.name, { first: true }) : null}
          listing={listing}
        />
      </>
    );
  }
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
