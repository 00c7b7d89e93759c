// Owns /preview?new: the editor, empty, for a page that does not exist yet — its author the
// editor's own profile, when they made one (a new post is theirs until they say otherwise).
import 'server-only';
import { contentStore } from '../../../lib/content/content';
import { PageEditor } from '../page-editor';
import type { ScreenProps } from './asked';
import { EMPTY_PAGE, editorMedia, WithSiteFrame } from './page-of';

export async function NewPageScreen({ asked }: ScreenProps) {
  const own = asked.editor ? await contentStore().authorOfEditor(asked.editor.editor.id) : null;
  return (
    <>
      <title>New page · Folio preview</title>
      <h1>New page</h1>
      <WithSiteFrame>
        <PageEditor
          initial={{ ...EMPTY_PAGE, authors: own?.slug ?? '' }}
          initialHtml=""
          savedAt={null}
          {...(await editorMedia())}
        />
      </WithSiteFrame>
    </>
  );
}
