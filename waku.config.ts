import { defineConfig, type VitePlugin as Plugin } from 'waku/config';

/**
 * Waku 1.0.0-rc.1 has no error hook: React's onError inside Waku only logs errors without a
 * digest. This plugin makes that onError (and the catch-all for errors thrown outside React
 * rendering) call Folio's reporter first, which gives the error a digest; Waku then returns
 * that digest to React, so the same id reaches the page, the log line and Sentry.
 * The build fails if Waku's code no longer has the expected shape (check on every upgrade).
 */
function folioErrorHook(): Plugin {
  const HOOK = 'globalThis.__FOLIO_ON_RENDER_ERROR__?.(e);';
  const patches = [
    {
      find: 'onError: (e)=>{\n                const digest = getDigest(e);',
      replace: `onError: (e)=>{\n                ${HOOK}\n                const digest = getDigest(e);`,
    },
    {
      // Our hook logs one structured line instead of Waku's multi-line warning.
      find: 'console.warn(sanitizeLog(e));',
      replace: `if (globalThis.__FOLIO_ON_RENDER_ERROR__) ${HOOK} else console.warn(sanitizeLog(e));`,
    },
  ];
  let patched = false;
  return {
    name: 'folio:error-hook',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]waku[\\/]dist[\\/]lib[\\/]vite-rsc[\\/]handler\.js$/.test(id)) return null;
      let out = code;
      for (const { find, replace } of patches) {
        if (!out.includes(find)) {
          throw new Error(
            `folio:error-hook: Waku's handler.js changed; cannot find ${JSON.stringify(find)}`,
          );
        }
        out = out.replace(find, replace);
      }
      patched = true;
      return { code: out, map: null };
    },
    buildEnd() {
      if (this.environment?.name === 'rsc' && !patched) {
        throw new Error("folio:error-hook: Waku's handler.js was never transformed");
      }
    },
  };
}

export default defineConfig({
  unstable_adapter: 'waku/adapters/bun',
  vite: {
    plugins: [folioErrorHook()],
    // Sentry's documented tree-shaking flag: drops the SDK's debug logging from every bundle.
    define: { __SENTRY_DEBUG__: 'false' },
  },
});
