// `bun run spotlight [spotlight's own arguments]`: Sentry's Spotlight sidecar and UI (on
// http://localhost:8969 unless `-p` says otherwise), from its own pinned install in
// tools/spotlight (installed here on first use). Its hono is pinned beside it: Spotlight 4.11
// with hono 4.13 (which Folio itself uses) answers 500 to every request. With the sidecar
// running, `SENTRY_SPOTLIGHT=1 bun run dev` sends the server's and the browser's errors and
// traces to it.
import { existsSync } from 'node:fs';
import path from 'node:path';

const dir = path.join(import.meta.dir, '..', 'tools', 'spotlight');
const bin = path.join(dir, 'node_modules', '.bin', 'spotlight');
if (!existsSync(bin)) {
  const install = Bun.spawnSync(['bun', 'install', '--frozen-lockfile'], {
    cwd: dir,
    stdout: 'ignore',
    stderr: 'inherit',
  });
  if (install.exitCode !== 0) {
    console.error('spotlight: could not install tools/spotlight (bun install failed above)');
    process.exit(1);
  }
}
const args = Bun.argv.slice(2);
const sidecar = Bun.spawn([bin, ...(args.length > 0 ? args : ['server'])], {
  stdio: ['inherit', 'inherit', 'inherit'],
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => sidecar.kill(signal));
process.exit(await sidecar.exited);
