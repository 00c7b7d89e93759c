// Owns /preview/<slug>?edit: the page's editor under its banner — or, for a form posted for a
// page deleted meanwhile, an editor for a new page with the typed text (its action made it so).
import 'server-only';
import { withListings } from '../../../lib/editor/live-listings';
import { editorValuesOf } from '../../../lib/editor/save-page';
import { rewriteLinksForPreview } from '../../../lib/http/routes';
import { PageEditor } from '../page-editor';
import type { ScreenProps } from './asked';
import { Banner, EMPTY_PAGE, editorMedia, pageOf, WithSiteFrame } from './page-of';

export async function EditorScreen({ asked }: ScreenProps) {
  const page = await pageOf(asked, { orDeleted: true });
  if (!page)
    return (
      <>
        <title>Page deleted · Folio preview</title>
        <p role="status">This page was deleted while you were editing it.</p>
        <WithSiteFrame>
          <PageEditor
            initial={{ ...EMPTY_PAGE, slug: asked.slug ?? '' }}
            initialHtml=""
            savedAt={null}
            {...(await editorMedia())}
          />
        </WithSiteFrame>
      </>
    );
  return (
    <>
      <title>{`${page.title} · Folio preview`}</title>
      <Banner page={page} editing={true} notice={asked.notice} />
      <WithSiteFrame page={page}>
        <PageEditor
          {...(await editorMedia(page.seo.image))}
          initial={await editorValuesOf(page)}
          initialHtml={await withListings(rewriteLinksForPreview(page.bodyHtml))}
          savedAt={page.draftUpdatedAt ?? page.updatedAt}
        />
      </WithSiteFrame>
    </>
  );
}
