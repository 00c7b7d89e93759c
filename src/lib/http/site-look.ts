// Owns what the pages Folio writes without React (the front door's 404s) know of the site: its
// title, language and favicon from Site settings (issue 27: they reach the 404 pages too). Read
// once per content version, which every settings save moves on, so a flood of junk addresses
// costs no database reads; without the database (or before any version is followed), Folio's
// defaults, as the document shell falls back to them (_root.tsx).
import 'server-only';
import { DEFAULT_LANGUAGE, directionOf } from '../content/settings';
import type { SiteSettings } from '../content/types';
import type { SiteLook } from '../observability/fallback-page';

export const DEFAULT_LOOK: SiteLook = {
  title: 'Folio',
  language: DEFAULT_LANGUAGE,
  direction: 'ltr',
  favicon: null,
};

export function lookOf({ title, language, favicon }: SiteSettings): SiteLook {
  return { title, language, direction: directionOf(language), favicon };
}

/**
 * A reader of the site's look: `settings` reads Site settings, `version` says the content
 * version (throws when none is followed: then every call reads afresh, as nothing says when
 * the settings change).
 */
export function createSiteLook(
  settings: () => Promise<SiteSettings>,
  version: () => number,
): () => Promise<SiteLook> {
  let kept: { version: number; look: Promise<SiteLook> } | null = null;
  const versionNow = () => {
    try {
      return version();
    } catch {
      return null;
    }
  };
  return () => {
    const now = versionNow();
    if (kept && now !== null && kept.version === now) return kept.look;
    const look = settings().then(lookOf, () => DEFAULT_LOOK);
    if (now === null) return look;
    // A failed read is not kept: the next request asks again.
    const entry = {
      version: now,
      look: look.then((found) => {
        if (found === DEFAULT_LOOK && kept === entry) kept = null;
        return found;
      }),
    };
    kept = entry;
    return entry.look;
  };
}
