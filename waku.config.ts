import { defineConfig, type VitePlugin as Plugin } from 'waku/config';
import { HANDLER_FILE, HANDLER_PATCHES } from './src/lib/waku/internals';

/**
 * Waku 1.0.0-rc.1 has no error hook: React's onError inside Waku only logs errors without a
 * digest. This plugin makes that onError (and the catch-all for errors thrown outside React
 * rendering) call Folio's reporter first, which gives the error a digest; Waku then returns
 * that digest to React, so the same id reaches the page, the log line and Sentry. What is
 * patched lives in src/lib/waku/internals.ts; the build fails if Waku's code no longer has
 * the expected shape.
 */
function folioErrorHook(): Plugin {
  let patched = false;
  return {
    name: 'folio:error-hook',
    enforce: 'pre',
    transform(code, id) {
      if (!HANDLER_FILE.test(id)) return null;
      let out = code;
      for (const { find, replace } of HANDLER_PATCHES) {
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
    // The production server is an entry of the same server bundle as Waku's handler, so the
    // two share every module (docs/decisions/0010).
    // The syntax highlighter's worker thread is an entry of its own (dist/server/
    // highlight-worker.js), started by src/lib/markdown/highlight.ts.
    environments: {
      // The browser loads Sentry's SDK only at its first error (client-errors.ts). Under `bun run
      // dev` Vite would find that import then, optimise it and reload the page — losing the
      // error the developer was looking at: it is optimised at start instead.
      client: {
        optimizeDeps: { include: ['@sentry/react'] },
      },
      rsc: {
        // The social card's rasteriser is a native addon (docs/decisions/0034): loaded from
        // node_modules at run time, as a bundler cannot inline a `.node` file.
        resolve: { external: ['@resvg/resvg-js'] },
        build: {
          rolldownOptions: {
            input: {
              serve: './src/serve.ts',
              'highlight-worker': './src/lib/markdown/highlight-worker.ts',
            },
          },
        },
      },
    },
  },
});
