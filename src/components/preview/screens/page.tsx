// Owns /preview/<slug>: the page as it will look with its draft — the site's own frame with the
// draft navigation, its date line and column — under the preview bar and the page's banner.
import 'server-only';
import { contentStore, type Topic } from '../../../lib/content/content';
import { publicParams } from '../../../lib/http/public-params';
import {
  isValidSlug,
  previewPath,
  rewriteLinksForPreview,
  TOPICS_SCREEN,
} from '../../../lib/http/routes';
import { Article, datesOf } from '../../article';
import { ArticleBody, authorLinksOf, topicLinksOf } from '../../article-body';
import { TopicArticle } from '../../post-listing';
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
          Topic “{topic.name}”: its published posts. <a href={TOPICS_SCREEN}>Edit the topic</a>
        </p>
      </PreviewBar>
      <SiteFrame {...(await siteFrameData({ draft: true }))} pathOf={previewPath}>
        <TopicArticle topic={topic} listing={listing} pathOf={previewPath} />
      </SiteFrame>
    </>
  );
}

export async function PageScreen({ asked }: ScreenProps) {
  if (asked.slug !== undefined && isValidSlug(asked.slug) && asked.segments.length === 1) {
    const store = contentStore();
    const topic =
      (await store.getPage(asked.slug, { draft: true })) === null
        ? await store.getTopic(asked.slug)
        : null;
    if (topic) return <TopicPreview asked={asked} topic={topic} />;
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
