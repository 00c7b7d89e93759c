// Owns /preview?media: the media library (upload, alt text, where each image is used).
import 'server-only';
import { mediaStore } from '../../../lib/media/media';
import { getEnv } from '../../../lib/runtime/env';
import { MediaLibrary } from '../media-library';
import type { ScreenProps } from './asked';

export async function MediaScreen({ asked: { notice } }: ScreenProps) {
  const media = mediaStore();
  const [items, usage] = await Promise.all([media.list(), media.usage()]);
  return <MediaLibrary items={items} usage={usage} notice={notice} maxMb={getEnv().MEDIA_MAX_MB} />;
}
