// Owns where a page's generated social card lives: `/media/<key>/card-<page id>.png`, under
// `/media/` so the front door serves it as it serves images, before Waku. The key is a hash of
// everything the card shows (the published revision's title and time, the site's title and
// accent colour, the design's version), so the address changes whenever the card would, may be
// cached for a year, and names nothing but what the current published revision makes: an old
// revision's or a changed title's address no longer matches, and answers 404.
import 'server-only';
import { createHash } from 'node:crypto';

/** Raise when the drawing changes, so every card's address changes with it. */
const CARD_DESIGN = 1;

/**
 * The file name of a card under its key: `card-<page id>.png`. Nine digits at most: every id
 * fits a 32-bit integer, so no id asked for can be out of the column's range (PostgreSQL would
 * refuse the query rather than find nothing).
 */
export const CARD_NAME = /^card-([1-9]\d{0,8})\.png$/;

export type CardSource = {
  pageId: number;
  /** The published revision's time and title. */
  publishedAt: string;
  title: string;
  siteTitle: string;
  accent: string;
};

export function cardKey(source: CardSource): string {
  return createHash('sha256')
    .update(
      JSON.stringify([
        CARD_DESIGN,
        source.pageId,
        source.publishedAt,
        source.title,
        source.siteTitle,
        source.accent,
      ]),
    )
    .digest('hex')
    .slice(0, 32);
}

/** The card's path for a published page as visitors see it now. */
export function cardPath(source: CardSource): `/media/${string}` {
  return `/media/${cardKey(source)}/card-${source.pageId}.png`;
}
