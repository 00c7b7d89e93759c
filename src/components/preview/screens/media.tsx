// Owns /preview?media: the media library (upload, alt text, where each image is used), one
// page of images at a time, searched by file name and alt text (issue 25).
import 'server-only';
import { contentStore } from '../../../lib/content/content';
import { can } from '../../../lib/editors/permissions';
import { mediaStore, settingsUsesOf } from '../../../lib/media/media';
import { mediaListQuery } from '../../../lib/media/media-list-params';
import { getEnv } from '../../../lib/runtime/env';
import { MediaLibrary } from '../media-library';
import type { ScreenProps } from './asked';

export async function MediaScreen({ asked: { notice, params, editor } }: ScreenProps) {
  const query = mediaListQuery(params);
  const [list, settings] = await Promise.all([
    mediaStore().page(query),
    contentStore().getSiteSettings(),
  ]);
  // The images Site settings use (the default social image, the favicon): not deletable.
  // Authors' profile photos likewise (the bylines show them).
  const photoUses = await mediaStore().photoUses(list.items.map((item) => item.hash));
  const settingsUses = new Map(
    list.items.flatMap((item) => {
      const uses = settingsUsesOf(settings, item.hash);
      return uses.length > 0 ? [[item.hash, uses] as const] : [];
    }),
  );
  return (
    <MediaLibrary
      list={list}
      query={query}
      notice={notice}
      maxMb={getEnv().MEDIA_MAX_MB}
      settingsUses={settingsUses}
      photoUses={photoUses}
      // Alt text and delete only for whom the table lets change the library (Editors and up).
      mayEdit={editor !== null && can(editor.editor, 'media.edit')}
    />
  );
}
