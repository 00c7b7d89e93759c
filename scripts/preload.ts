// Preloaded into every Bun process of the project (bunfig.toml). `server-only` guards our
// server modules inside the Vite build, where @vitejs/plugin-rsc resolves it; plain Bun
// processes (server.ts, the CLI, bun test) are server-side by definition, so the package's
// "imported from the client" throw is replaced by an empty module there.
import { plugin } from 'bun';

plugin({
  name: 'folio-server-only',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]server-only[\\/]index\.js$/ }, () => ({
      contents: 'export {};',
      loader: 'js',
    }));
  },
});
