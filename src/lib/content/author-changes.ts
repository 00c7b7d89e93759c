// Owns what an author's profile save changes for visitors (docs/decisions/0045, fourth hostile
// pass M2): nothing when the form is sent as it was (no write, no purge: any Author could
// otherwise flush a shared cache in front at will), the author's own page when only what that
// page shows changed (bio, links), and everything when a name, photo or address changed — those
// show in bylines on posts and on every listing page that lists them, which the render cache's
// dependency cannot name page by page (paginated listings move with each publish).
import { type ContentChange, EVERYTHING, pagesChanged } from '../data/content-changes';

export type StoredProfile = {
  slug: string;
  name: string;
  bio: string;
  photo: string | null;
  links: string;
};

export type SavedProfile = {
  slug: string;
  name: string;
  bio: string;
  photo: string | null;
  links: string[];
};

/** What saving `next` over `stored` changes for visitors, or null: nothing. */
export function profileChange(stored: StoredProfile, next: SavedProfile): ContentChange | null {
  const bylineSame =
    stored.slug === next.slug && stored.name === next.name && stored.photo === next.photo;
  const pageSame = stored.bio === next.bio && stored.links === JSON.stringify(next.links);
  if (bylineSame && pageSame) return null;
  return bylineSame ? pagesChanged(stored.slug) : EVERYTHING;
}
