// Owns every use Folio makes of Waku 1.0.0-rc.1's internals: the build-time patch of its request
// handler, the digest format of its control-flow errors, the shape of its page-data and action
// addresses, its etags header, the progressive-enhancement form fields of React's actions, and
// its reload-once preload listener. None of these is a stable API; on a Waku upgrade this file
// is the one to review, and tests/integration/waku-internals.test.ts says what still holds.
// Shared by server and browser code: nothing here may import server-only modules.

// --- Error digests ----------------------------------------------------------------------------

/** Waku marks its own control-flow errors (not found, redirect, status) with this prefix. */
const CUSTOM_ERROR_PREFIX = '__WAKU_CUSTOM_ERROR__;';

export type WakuErrorInfo = { status?: number; location?: string; unstable_leave?: boolean };

/** What a Waku control-flow error says (its status, a redirect), or null for any other error. */
export function wakuErrorInfo(error: unknown): WakuErrorInfo | null {
  const digest = (error as { digest?: unknown } | null)?.digest;
  if (typeof digest !== 'string' || !digest.startsWith(CUSTOM_ERROR_PREFIX)) return null;
  try {
    const info = JSON.parse(digest.slice(CUSTOM_ERROR_PREFIX.length)) as unknown;
    return typeof info === 'object' && info !== null ? (info as WakuErrorInfo) : {};
  } catch {
    return {};
  }
}

/** Waku's "leave" error: its router pushes `url` and loads it as a full page. */
export function leavePageError(url: string): Error {
  const info: WakuErrorInfo = { location: url, unstable_leave: true };
  return Object.assign(new Error(`full page load: ${url}`), {
    digest: `${CUSTOM_ERROR_PREFIX}${JSON.stringify(info)}`,
  });
}

// --- The render-error hook (a build-time patch of Waku's handler) ----------------------------

/** The global our patched copy of Waku's handler calls with every render error. */
export const RENDER_ERROR_HOOK = '__FOLIO_ON_RENDER_ERROR__';

/** The file the patch applies to, and what it changes (waku.config.ts applies it). */
export const HANDLER_FILE = /[\\/]waku[\\/]dist[\\/]lib[\\/]vite-rsc[\\/]handler\.js(\?.*)?$/;
const HOOK_CALL = `globalThis.${RENDER_ERROR_HOOK}?.(e);`;
export const HANDLER_PATCHES: readonly { find: string; replace: string }[] = [
  {
    // React's onError for every render: our hook gives the error a digest, which Waku's own
    // onError then returns to React, so the page, the log line and Sentry share one id.
    find: 'onError: (e)=>{\n                const digest = getDigest(e);',
    replace: `onError: (e)=>{\n                ${HOOK_CALL}\n                const digest = getDigest(e);`,
  },
  {
    // Errors thrown outside React rendering: one structured log line instead of Waku's warning.
    find: 'console.warn(sanitizeLog(e));',
    replace: `if (globalThis.${RENDER_ERROR_HOOK}) ${HOOK_CALL} else console.warn(sanitizeLog(e));`,
  },
];

export function setRenderErrorHook(hook: (error: unknown) => void): void {
  (globalThis as unknown as Record<string, unknown>)[RENDER_ERROR_HOOK] = hook;
}

// --- Addresses --------------------------------------------------------------------------------

/** Waku's prefix for page data (`R/`) and action calls (`F/`). */
export const RSC_PREFIX = '/RSC/';

/** The page-data address Waku's router asks for a page path (`/` → `/RSC/R/_root.txt`). */
export function pageDataPathOf(pagePath: string): string {
  return `${RSC_PREFIX}R${pagePath === '/' ? '/_root' : pagePath}.txt`;
}

/**
 * The address of Waku's not-found route (pages/(site)/404.tsx): the router asks for its page
 * data when a page's data says "no such page", to show it in place.
 */
export const NOT_FOUND_ROUTE_PATH = '/404';

/** The page path a page-data address is for, or null when it is not one. */
export function pagePathOfPageData(pathname: string): string | null {
  // Waku reads `/RSC/R/.txt` as the root's too: it is page data, if not in its own spelling.
  const match = /^\/RSC\/R\/(.*)\.txt$/.exec(pathname);
  if (match?.[1] === undefined) return null;
  const inner = match[1].endsWith('_') ? match[1].slice(0, -1) : match[1];
  return inner === '_root' ? '/' : `/${inner}`;
}

/**
 * The action id (`<module>#<export>`) an action address names, or null. Read as Waku's
 * decodeFuncId reads it: the export name may be empty, and a leading `_` escapes the module.
 */
export function actionIdOfPath(pathname: string): string | null {
  const match = /^\/RSC\/F\/(.+)\/([^/]*)\.txt$/.exec(pathname);
  if (!match?.[1]) return null;
  const module = match[1].startsWith('_') ? match[1].slice(1) : match[1];
  return `${module}#${match[2] ?? ''}`;
}

/** In the browser, an RSC request's path (`R/about`) is a page-data request for a route. */
export function isRouteRscPath(rscPath: string): boolean {
  return rscPath.startsWith('R/');
}

/** What an action address looks like; the browser names it in a header (x-folio-action). */
export const ACTION_PATH = /^\/RSC\/F\/[^?#]+\.txt$/;

/** The exported name of the function an action address calls (`/RSC/F/<file>/<name>.txt`). */
export function actionNameOf(actionPath: string): string | null {
  if (!ACTION_PATH.test(actionPath)) return null;
  return /\/([^/]+)\.txt$/.exec(actionPath)?.[1] ?? null;
}

/**
 * The action ids a form posted without JavaScript names (none: a plain post), or 'malformed'.
 * React reads every `$ACTION_ID_<id>` field, and every `$ACTION_REF_<n>` with the id in the
 * JSON of `$ACTION_<n>:0`, and calls the last one it finds: each must be checked.
 */
export function actionIdsOfForm(form: FormData): string[] | 'malformed' {
  const ids: string[] = [];
  for (const key of form.keys()) {
    if (key.startsWith('$ACTION_ID_')) ids.push(key.slice('$ACTION_ID_'.length));
    else if (key.startsWith('$ACTION_REF_')) {
      const meta = form.get(`$ACTION_${key.slice('$ACTION_REF_'.length)}:0`);
      if (typeof meta !== 'string') return 'malformed';
      try {
        const id = (JSON.parse(meta) as { id?: unknown } | null)?.id;
        if (typeof id !== 'string') return 'malformed';
        ids.push(id);
      } catch {
        return 'malformed';
      }
    }
  }
  return ids;
}

// --- Headers, globals and events -------------------------------------------------------------

/** True when the page was rendered on the server (hydrate), false for Waku's HTML fallback. */
export function pageWasServerRendered(): boolean {
  return (globalThis as { __WAKU_HYDRATE__?: boolean }).__WAKU_HYDRATE__ === true;
}

/** This build's id (Waku defines it for every bundle at build time; a fixed one in dev). */
export function buildId(): string {
  // Written out in full: the build replaces exactly `import.meta.env.WAKU_BUILD_ID`.
  return import.meta.env.WAKU_BUILD_ID ?? '';
}

/** The header in which the browser lists the elements it already holds. */
export const ETAGS_HEADER = 'x-waku-etags';

/**
 * The event Vite fires when a script or stylesheet of the build fails to load. Waku rc.1
 * installs a reload-once listener for it; Folio's inline guard handles it instead and stops
 * Waku's (both would reload: three loads instead of two).
 */
export const PRELOAD_ERROR_EVENT = 'vite:preloadError';

// --- The page's bootstrap script ---------------------------------------------------------------

/** Only Waku's bootstrap script sets this global (its page payloads are other scripts). */
export const WAKU_BOOTSTRAP_MARKER = 'globalThis.__WAKU_INITIAL_RSC__';

/** The bootstrap's `import("<entry>")` of the client entry (hydrate-after-paint.ts defers it). */
export function wakuEntryImport(
  script: string,
): { entry: string; index: number; length: number } | null {
  const match = /\bimport\(("\/[^"\\]+")\)/.exec(script);
  if (!match) return null;
  return {
    entry: JSON.parse(match[1] as string) as string,
    index: match.index,
    length: match[0].length,
  };
}
