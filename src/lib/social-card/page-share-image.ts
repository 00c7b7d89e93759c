// Owns which image stands for a published page where it is shared (og:image, JSON-LD, the
// content API's `image`): the one rule, for one page or a listing's many in one media read.
import 'server-only';
import { usableForCard } from '../content/seo-fields';
import type { SiteSettings } from '../content/types';
import { mediaStore } from '../media/media';
import { cardPath } from './card-address';
import { cardImage, firstImageIn, libraryImage, type ShareImage } from './share-image';

/** What the rule reads of a page: its published text and its chosen social image. */
export type SharedPage = {
  id: number;
  title: string;
  bodyHtml: string;
  publishedAt: string;
  seo: { image: string | null };
};

/**
 * The social image the page's editor chose, if the library still has it; else the page's first
 * image, when a share card takes it (at least 200 × 200 px, seo-fields.ts: a smaller one is
 * skipped); else the site's default social image, if the library still has it; else the card
 * drawn from the published revision's title (card-address.ts). `title` is what the page is
 * shared under (its search title, or its title): the alt text of a chosen image without one.
 * The library is read once for all the pages.
 */
export async function shareImagesOf(
  pages: readonly { page: SharedPage; title: string }[],
  settings: SiteSettings,
): Promise<ShareImage[]> {
  const hashes = new Set<string>();
  for (const { page } of pages) if (page.seo.image) hashes.add(page.seo.image);
  if (settings.socialImage) hashes.add(settings.socialImage);
  const library = hashes.size === 0 ? new Map() : await mediaStore().byHashes([...hashes]);
  const siteItem = settings.socialImage ? library.get(settings.socialImage) : undefined;
  const siteImage = siteItem ? libraryImage(siteItem) : null;
  return pages.map(({ page, title }) => {
    const chosenItem = page.seo.image ? library.get(page.seo.image) : undefined;
    const chosen = chosenItem ? libraryImage(chosenItem) : null;
    // Its alt text, else the title it is shared with: og:image:alt is never empty.
    if (chosen && usableForCard(chosen.width, chosen.height))
      return { ...chosen, alt: chosen.alt || title };
    const first = firstImageIn(page.bodyHtml);
    if (first && usableForCard(first.width, first.height)) return first;
    if (siteImage) return siteImage;
    const card = cardPath({
      pageId: page.id,
      publishedAt: page.publishedAt,
      title: page.title,
      siteTitle: settings.title,
      accent: settings.accent,
    });
    return cardImage(card, page.title);
  });
}
