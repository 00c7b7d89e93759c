// Owns how large a request body the server reads at all: an upload gets room for an image of
// MEDIA_MAX_MB, everything else REQUEST_BODY_MAX_BYTES. HTTP policy on Waku's action addresses,
// so it lives at the edge: the content domain keeps only the numbers (content/field-limits.ts).
import { REQUEST_BODY_MAX_BYTES, UPLOAD_ACTION_NAME } from '../content/field-limits';
import { actionNameOf } from '../waku/internals';

/**
 * The largest body read for a request to `url` calling `action` (the action address a
 * browser names, null for none): an upload — the media library's form without JavaScript, or
 * the upload action called from the library or the editor — may be an image of `mediaMaxMb`
 * with room for the form around it; every other request REQUEST_BODY_MAX_BYTES.
 */
export function requestBodyLimit(url: URL, action: string | null, mediaMaxMb: number): number {
  const upload =
    action !== null
      ? actionNameOf(action) === UPLOAD_ACTION_NAME
      : (url.pathname === '/preview' && url.searchParams.has('media')) ||
        actionNameOf(url.pathname) === UPLOAD_ACTION_NAME;
  return upload
    ? Math.max(REQUEST_BODY_MAX_BYTES, (mediaMaxMb + 1) * 1024 * 1024)
    : REQUEST_BODY_MAX_BYTES;
}
