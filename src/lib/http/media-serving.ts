// Answers /media/<hash>/<variant>: an uploaded image's bytes, straight from the store. The
// address names the bytes (a hash of the upload), so browsers and CDNs may keep an answer
// for a year without asking again; a deleted image is a 404 from then on (docs/decisions/0019).
// `/media/<key>/card-<page id>.png` is a published page's generated social card, whose key
// names what it shows just as a hash names an upload (docs/decisions/0034).
import 'server-only';
import { isDatabaseBusy, isDatabaseUnavailable } from '../data/db-errors';
import type { MediaStore } from '../media/media';
import { hasOriginal, MEDIA_ADDRESS } from '../media/media-refs';
import { CARD_NAME } from '../social-card/card-address';
import type { CardStore } from '../social-card/card-store';
import { clientCopyIsCurrent } from './negotiation';

const IMMUTABLE = 'public, max-age=31536000, immutable';

const plain = (status: number, text: string, headers: Record<string, string> = {}) =>
  new Response(`${text}\n`, {
    status,
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
      ...headers,
    },
  });

export function createMediaResponder(store: () => MediaStore, cards?: () => CardStore) {
  return async function serveMedia(request: Request, pathname: string): Promise<Response> {
    const [, hash = '', name] = MEDIA_ADDRESS.exec(pathname) ?? [];
    try {
      const cardOf = name === undefined ? null : CARD_NAME.exec(name);
      if (cardOf && cards) {
        const etag = `"${hash}-card"`;
        // The key names what the card shows; only a current card is drawn, and a copy of one is
        // current while it is (the check below is a read by primary key; drawing is not).
        const png = await cards().card(hash, Number(cardOf[1]));
        if (!png) return plain(404, 'There is no such image.');
        if (clientCopyIsCurrent(request, etag))
          return new Response(null, { status: 304, headers: { etag, 'cache-control': IMMUTABLE } });
        return new Response(png, {
          headers: {
            'content-type': 'image/png',
            'cache-control': IMMUTABLE,
            etag,
            'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
          },
        });
      }
      if (!name) {
        // `/media/<hash>`: the image in its original format, wherever that is.
        const item = (await store().byHashes([hash])).get(hash);
        // Without its original there is nothing to point at: a year-long redirect to a 404
        // would outlive the repair.
        if (!item || !hasOriginal(item)) return plain(404, 'There is no such image.');
        return new Response(null, {
          status: 308,
          headers: { location: item.src, 'cache-control': IMMUTABLE },
        });
      }
      const variant = await store().variant(hash, name);
      if (!variant) return plain(404, 'There is no such image.');
      // The bytes at an address never change: a copy the browser holds of one that still
      // exists is current.
      const etag = `"${hash}-${name}"`;
      if (clientCopyIsCurrent(request, etag))
        return new Response(null, {
          status: 304,
          headers: { etag, 'cache-control': IMMUTABLE },
        });
      return new Response(variant.data, {
        headers: {
          'content-type': variant.contentType,
          'cache-control': IMMUTABLE,
          etag,
          // An image needs nothing else, even if a browser were talked into rendering it; and
          // no page frames it (frame-ancestors does not fall back to default-src).
          'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
        },
      });
    } catch (error) {
      if (isDatabaseBusy(error) || isDatabaseUnavailable(error))
        return plain(503, 'Images are unavailable for a moment; try again.', {
          'retry-after': '5',
        });
      throw error;
    }
  };
}
