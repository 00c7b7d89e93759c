// Owns /preview/<slug>?edit: the page's editor under its banner — or, for a form posted for a
// page deleted meanwhile, an editor for a new page with the typed text (its action made it so).
import 'server-only';
import { contentStore } from '../../../lib/content/content';
import { withListings } from '../../../lib/editor/live-listings';
import { editorValuesOf } from '../../../lib/editor/save-page';
import { can, refusalOf } from '../../../lib/editors/permissions';
import { requestContext } from '../../../lib/http/request-context';
import { rewriteLinksForPreview } from '../../../lib/http/routes';
import { PageEditor } from '../page-editor';
import type { ScreenProps } from './asked';
import { ForbiddenScreen } from './forbidden';
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
  // Asked with the page, as the dashboard and the banner do (hostile pass 2, issue 28: a page
  // that is nobody's own offered a Contributor Save draft). A posted form keeps its editor: the
  // refusal answers there, the typed text in it.
  const ownership = await contentStore().pageOwnership(page.id);
  const person = asked.editor?.editor;
  if (
    person !== undefined &&
    ownership !== null &&
    !can(person, 'page.edit', ownership) &&
    requestContext().request.method !== 'POST'
  )
    return <ForbiddenScreen asked={asked} message={refusalOf(person, 'page.edit')} />;
  // Who the others editing this page see (decision record 0051): their author name, if any.
  const profile = person ? await contentStore().authorOfEditor(person.id) : null;
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
          {...(person ? { me: { email: person.email, name: profile?.name ?? null } } : {})}
        />
      </WithSiteFrame>
    </>
  );
}
