// Owns what a content version changed, for dependency-aware invalidation (docs/decisions/0028):
// a write names the pages whose addresses show something else now, or "everything" when what
// changed is on every page (site settings, the header's navigation) or is not known. Every
// version is one write; a process keeps, per page, the last version that changed it, and a
// cached page made at version v is still current while no version after v changed it. What
// this process has not heard of (a notification missed while its listener reconnected, a
// writer that died before telling) counts as everything: never stale, at worst a cold render.
// Pure: the engines' followers (content-version.ts) feed it.

/** Some pages by slug (their HTML, their page data; the listings with them), or everything. */
export type ContentChange = { readonly pages: readonly string[] } | typeof EVERYTHING;

export const EVERYTHING = 'everything';

/**
 * Beyond this many pages one write says "everything": a PostgreSQL NOTIFY payload holds
 * 8 000 bytes and a SQLite sidecar slot 4 096 (32 slugs of at most 100 characters fit both),
 * and a write that touches that many pages (an import) is rare enough to pay for it.
 */
export const MAX_PAGES_PER_CHANGE = 32;

export function pagesChanged(...slugs: string[]): ContentChange {
  return { pages: [...new Set(slugs)] };
}

/** Both changes, as one (a transaction that publishes several pages). */
export function mergeChanges(a: ContentChange | null, b: ContentChange): ContentChange {
  if (a === null) return b;
  if (a === EVERYTHING || b === EVERYTHING) return EVERYTHING;
  const pages = new Set([...a.pages, ...b.pages]);
  return pages.size > MAX_PAGES_PER_CHANGE ? EVERYTHING : { pages: [...pages] };
}

/** `<version>:*` or `<version>:<slug>,<slug>` (slugs hold no comma, no colon). */
export function encodeChange(version: number, change: ContentChange): string {
  if (change === EVERYTHING || change.pages.length > MAX_PAGES_PER_CHANGE) return `${version}:*`;
  return `${version}:${change.pages.join(',')}`;
}

/**
 * A notification's version and change. A bare version (a listener's probe, or a writer from
 * before 0028) says nothing about what changed: everything, if it is news.
 */
export function decodeChange(payload: string): { version: number; change: ContentChange } {
  const colon = payload.indexOf(':');
  if (colon === -1) return { version: Number(payload), change: EVERYTHING };
  const rest = payload.slice(colon + 1);
  return {
    version: Number(payload.slice(0, colon)),
    change: rest === '*' ? EVERYTHING : pagesChanged(...rest.split(',').filter(Boolean)),
  };
}

/**
 * What one process knows of the versions: the last that changed everything, the last that
 * changed each page, and which versions it has not heard of yet.
 */
export function createChangeLog() {
  /** Every version up to it is known (or counted as everything). */
  let contiguous = 0;
  /** Versions known beyond `contiguous`: this process's own commits, told before its listener
   * heard the ones before them. */
  const ahead = new Set<number>();
  let latest = 0;
  let everythingAt = 0;
  const pageAt = new Map<string, number>();
  /** The highest version not known yet below `latest` (0: none): a page made before it may
   * be stale in a way nothing here can tell. */
  let unknownBelow = 0;

  function apply(version: number, change: ContentChange) {
    latest = Math.max(latest, version);
    if (change === EVERYTHING) {
      everythingAt = Math.max(everythingAt, version);
      // What "everything" covers need not be kept per page: memory stays bounded by the
      // pages changed since the last settings change or missed notification.
      for (const [slug, at] of pageAt) if (at <= everythingAt) pageAt.delete(slug);
      return;
    }
    for (const slug of change.pages) pageAt.set(slug, Math.max(pageAt.get(slug) ?? 0, version));
  }

  function settle() {
    while (ahead.has(contiguous + 1)) {
      contiguous += 1;
      ahead.delete(contiguous);
    }
    for (const version of ahead) if (version <= contiguous) ahead.delete(version);
    unknownBelow = 0;
    if (ahead.size === 0) return;
    const top = Math.max(...ahead);
    for (let version = top - 1; version > contiguous; version--)
      if (!ahead.has(version)) {
        unknownBelow = version;
        break;
      }
  }

  return {
    /** The newest version known. */
    get latest() {
      return latest;
    },
    /** Every version up to this one is known. */
    get contiguous() {
      return contiguous;
    },

    /**
     * The version stored in the database, read at start or after the listener reconnected:
     * anything after what is known happened unheard, so it changed everything.
     */
    resync(stored: number) {
      if (!Number.isFinite(stored) || stored <= contiguous) return;
      apply(stored, EVERYTHING);
      contiguous = stored;
      settle();
    },

    /**
     * A version heard in commit order (a NOTIFY, the SQLite sidecar's next slot). One that
     * skips versions means some were missed: everything, up to it.
     */
    heard(version: number, change: ContentChange) {
      if (!Number.isFinite(version) || version <= contiguous) return;
      if (version !== contiguous + 1) {
        this.resync(version);
        return;
      }
      apply(version, change);
      ahead.add(version);
      settle();
    },

    /** This process's own commit: known at once, whatever it has heard of before it. */
    committed(version: number, change: ContentChange) {
      if (!Number.isFinite(version) || version <= contiguous) return;
      apply(version, change);
      ahead.add(version);
      settle();
    },

    /**
     * Whether what was made at `version` for the page `slug` is still what visitors should
     * see: nothing after it changed that page, everything, or anything unknown.
     */
    stillCurrent(version: number, slug: string): boolean {
      return (
        version >= everythingAt && version >= (pageAt.get(slug) ?? 0) && version >= unknownBelow
      );
    },

    /**
     * The version the listings (feed, sitemap, anything that lists pages) were last changed
     * at: every page change is one (a publish moves a page to the top of the feed, and its
     * date in the sitemap). Unknown versions count.
     */
    get listingsVersion() {
      return latest;
    },
  };
}

export type ChangeLog = ReturnType<typeof createChangeLog>;
