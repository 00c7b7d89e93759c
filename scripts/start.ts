// `bun run start`: build when the build is missing or older than the sources, create and seed
// the database when it is empty, then serve.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { startServer } from '../server';
import { contentStore } from '../src/lib/content';
import { log } from '../src/lib/log';
import { seedDemoContent } from '../src/lib/seed';

const BUILD_ENTRY = 'dist/server/index.js';

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const mtime = entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs;
    if (mtime > newest) newest = mtime;
  }
  return newest;
}

function buildIsStale(): boolean {
  if (!existsSync(BUILD_ENTRY)) return true;
  const built = statSync(BUILD_ENTRY).mtimeMs;
  return ['src', 'public'].some((dir) => existsSync(dir) && newestMtime(dir) > built);
}

if (buildIsStale()) {
  log.info('building', { reason: existsSync(BUILD_ENTRY) ? 'sources changed' : 'no build yet' });
  const build = Bun.spawnSync(['bun', '--bun', 'waku', 'build'], {
    stdout: 'inherit',
    stderr: 'inherit',
  });
  if (build.exitCode !== 0) process.exit(build.exitCode ?? 1);
}

const seeded = seedDemoContent(contentStore());
if (seeded) log.info('seeded demo content');
await startServer();
