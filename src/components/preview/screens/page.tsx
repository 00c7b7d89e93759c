// Owns /preview/<slug>: the page as it will look with its draft — the site's own frame with the
// draft navigation, its date line and column — under the preview bar and the page's banner.
import 'server-only';
import { previewPath, rewriteLinksForPreview } from '../../../lib/http/routes';
import { Article, datesOf } from '../../article';
import { SiteFrame, siteFrameData } from '../../site-frame';
import { PreviewBar } from '../editor-chrome';
import type { ScreenProps } from './asked';
import { Banner, pageOf } from './page-of';

export async function PageScreen({ asked }: ScreenProps) {
  const page = await pageOf(asked);
  return (
    <>
      <title>{`${page.title} · Folio preview`}</title>
      <PreviewBar editor={asked.editor}>
        <Banner page={page} editing={false} notice={asked.notice} />
      </PreviewBar>
      <SiteFrame {...(await siteFrameData({ draft: true }))} pathOf={previewPath}>
        <Article
          page={{ ...page, bodyHtml: rewriteLinksForPreview(page.bodyHtml) }}
          dates={datesOf(page, { asWillBePublished: true })}
        />
      </SiteFrame>
    </>
  );
}
