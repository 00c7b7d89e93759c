// Owns /preview?media: the media library (upload, alt text, where each image is used), one
// page of images at a time, searched by file name and alt text (issue 25).
import 'server-only';
import { mediaStore } from '../../../lib/media/media';
import { mediaListQuery } from '../../../lib/media/media-list-params';
import { getEnv } from '../../../lib/runtime/env';
import { MediaLibrary } from '../media-library';
import type { ScreenProps } from './asked';

export async function MediaScreen({ asked: { notice, params } }: ScreenProps) {
  const query = mediaListQuery(params);
  const list = await mediaStore().page(query);
  return <MediaLibrary list={list} query={query} notice={notice} maxMb={getEnv().MEDIA_MAX_MB} />;
}
