// Owns what the media library's list is asked and answers (media-list.ts runs it): the query,
// the keyset cursor as a query parameter, the sizes. No database here: the library's
// component reads and writes its addresses with these.
import { cursorParts, isCursorText, searchText } from '../content/page-list-params';
import type { MediaItem } from './media-refs';

/**
 * Images on one page of the library. Each weighs about 2.4 KB of HTML with its form and its
 * share of the inlined payload (more with a long alt text, which shows four times): 40 keep
 * a page near 150 KB, under issue 25's 200 KB with room for longer descriptions.
 */
export const MEDIA_LIST_SIZE = 40;
/** Pages named under each image; the rest are counted. */
export const USES_SHOWN = 3;
/** Pages counted exactly for one image; past it the library says "more than". */
export const USES_COUNTED = 1000;
/** Search matches counted exactly; past it the library says "more than". */
export const MEDIA_MATCHES_COUNTED = 2000;

/** Where a page of images starts: after (older) or before (newer) an image's upload time and id. */
export type MediaCursor = { direction: 'after' | 'before'; key: string; id: number };

export type MediaListQuery = { q: string; cursor: MediaCursor | null };

/** Where an image is used: the pages counted (at most USES_COUNTED + 1), and the first few. */
export type MediaUse = {
  pages: number;
  shown: { slug: string; published: boolean; draft: boolean }[];
};

export type MediaListResult = {
  items: MediaItem[];
  uses: Map<string, MediaUse>;
  previous: MediaCursor | null;
  next: MediaCursor | null;
  /** Images in the library. */
  total: number;
  /** Images the search matches: exact up to MEDIA_MATCHES_COUNTED, else more than that. */
  matching: number;
};

/** The query a library address asks for (`/preview?media&q=…&after=…`); anything odd is dropped. */
export function mediaListQuery(params: URLSearchParams): MediaListQuery {
  return {
    q: searchText(params.get('q')),
    cursor:
      parseMediaCursor('after', params.get('after')) ??
      parseMediaCursor('before', params.get('before')),
  };
}

/** A cursor as a query parameter value: opaque to the editor, readable by parseMediaCursor. */
export function mediaCursorParam(cursor: MediaCursor): string {
  return Buffer.from(JSON.stringify([cursor.key, cursor.id])).toString('base64url');
}

export function parseMediaCursor(
  direction: MediaCursor['direction'],
  value: string | null,
): MediaCursor | null {
  const parts = cursorParts(value, 200);
  if (!parts || !isCursorText(parts[0]) || !Number.isSafeInteger(parts[1])) return null;
  return { direction, key: parts[0], id: parts[1] as number };
}
