// Owns /preview?new: the editor, empty, for a page that does not exist yet.
import 'server-only';
import { PageEditor } from '../page-editor';
import { EMPTY_PAGE, editorMedia, WithSiteFrame } from './page-of';

export async function NewPageScreen() {
  return (
    <>
      <title>New page · Folio preview</title>
      <h1>New page</h1>
      <WithSiteFrame>
        <PageEditor initial={EMPTY_PAGE} initialHtml="" savedAt={null} {...(await editorMedia())} />
      </WithSiteFrame>
    </>
  );
}
