// Owns /preview/<slug>: the page as it will look with its draft — the site's own frame with the
// draft navigation, its date line and column — under the preview bar and the page's banner.
import 'server-only';
import type { AuthorProfile } from '../../../lib/content/authors';
import { contentStore, type Topic } from '../../../lib/content/content';
import { publicParams } from '../../../lib/http/public-params';
import {
  AUTHOR_PROFILE,
  isValidSlug,
  previewPath,
  rewriteLinksForPreview,
  TOPICS_SCREEN,
} from '../../../lib/http/routes';
import { mediaStore } from '../../../lib/media/media';
import { pictureHtml } from '../../../lib/media/media-refs';
import { Article, datesOf } from '../../article';
import { ArticleBody, authorLinksOf, topicLinksOf } from '../../article-body';
import { AuthorArticle, TopicArticle } from '../../post-listing';
import { SiteFrame, siteFrameData } from '../../site-frame';
import { PreviewBar } from '../editor-chrome';
import type { ScreenProps } from './asked';
import { Banner, pageOf } from './page-of';

/**
 * A topic's page as visitors see it (its published posts: a draft is not listed until it is
 * published), when the address is a topic's and no page's. Editors see it also before any
 * post has it (visitors then get a 404).
 */
async function TopicPreview({ asked, topic }: ScreenProps & { topic: Topic }) {
  const store = contentStore();
  const listing = (await store.listPosts(publicParams().page, { topicId: topic.id })) ?? {
    page: 1,
    hasNext: false,
    posts: [],
  };
  return (
    <>
      <title>{`${topic.name} · Folio preview`}</title>
      <PreviewBar editor={asked.editor}>
        <p className="preview-note">
          Topic “{topic.name}”: its published posts
          {listing.posts.length === 0 ? ' (none yet: visitors do not see this page)' : ''}.{' '}
          <a href={TOPICS_SCREEN}>Edit the topic</a>
        </p>
      </PreviewBar>
      <SiteFrame {...(await siteFrameData({ draft: true }))} pathOf={previewPath}>
        <TopicArticle topic={topic} listing={listing} pathOf={previewPath} />
      </SiteFrame>
    </>
  );
}

/**
 * An author's page as visitors see it (their bio as saved, their published posts), when the
 * address is an author's and no page's or topic's, as on the public site. Editors see it also
 * before the author has a published post (visitors then get a 404).
 */
async function AuthorPreview({ asked, author }: ScreenProps & { author: AuthorProfile }) {
  const listing = (await contentStore().listPosts(publicParams().page, {
    authorId: author.id,
  })) ?? { page: 1, hasNext: false, posts: [] };
  const photo = author.photo
    ? (await mediaStore().byHashes([author.photo])).get(author.photo)
    : null;
  return (
    <>
      <title>{`${author.name} · Folio preview`}</title>
      <PreviewBar editor={asked.editor}>
        <p className="preview-note">
          Author “{author.name}”: their published posts
          {listing.posts.length === 0 ? ' (none yet: visitors do not see this page)' : ''}.{' '}
          <a href={AUTHOR_PROFILE}>Edit the profile</a>
        </p>
      </PreviewBar>
      <SiteFrame {...(await siteFrameData({ draft: true }))} pathOf={previewPath}>
        <AuthorArticle
          author={author}
          photoHtml={photo ? pictureHtml(photo, author.name, { first: true }) : null}
          listing={listing}
          pathOf={previewPath}
        />
      </SiteFrame>
    </>
  );
}

export async function PageScreen({ asked }: ScreenProps) {
  if (asked.slug !== undefined && isValidSlug(asked.slug) && asked.segments.length === 1) {
    // The public site's order at one address: a page, then a topic, then an author.
    const store = contentStore();
    if ((await store.getPage(asked.slug, { draft: true })) === null) {
      const topic = await store.getTopic(asked.slug);
      if (topic) return <TopicPreview asked={asked} topic={topic} />;
      const author = await store.getAuthor(asked.slug);
      if (author) return <AuthorPreview asked={asked} author={author} />;
    }
  }
  const page = await pageOf(asked);
  return (
    <>
      <title>{`${page.title} · Folio preview`}</title>
      <PreviewBar editor={asked.editor}>
        <Banner page={page} editing={false} notice={asked.notice} />
      </PreviewBar>
      <SiteFrame {...(await siteFrameData({ draft: true }))} pathOf={previewPath}>
        <Article
          page={page}
          dates={datesOf(page, { asWillBePublished: true })}
          body={
            <ArticleBody
              html={rewriteLinksForPreview(page.bodyHtml)}
              preview={true}
              pathOf={previewPath}
            />
          }
          topics={await topicLinksOf(page, previewPath)}
          authors={await authorLinksOf(page, previewPath)}
        />
      </SiteFrame>
    </>
  );
}
