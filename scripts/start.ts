// `bun run start`: build when the build is missing or older than its inputs, then run the built
// server (dist/server/serve.js). Nothing here imports src/: the server, its start-up checks and
// the seeding of a new database all come from the build, so the process holds one copy of
// Folio's code (docs/decisions/0010).
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

const SERVE_ENTRY = 'dist/server/serve.js';
/** Where the build's own output goes (it is shown on the terminal with --verbose). */
const BUILD_LOG = 'dist/build.log';
const VERBOSE = process.argv.includes('--verbose');

/** One log line, in the server's own format (src/lib/observability/log.ts). */
function say(level: 'info' | 'error', msg: string, fields: Record<string, unknown> = {}) {
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields });
  if (level === 'error') console.error(line);
  else console.log(line);
}
/** What the build is made from; unit tests beside the code are not. */
const BUILD_INPUTS = [
  'src',
  'public',
  'waku.config.ts',
  'package.json',
  'bun.lock',
  'tsconfig.json',
];

function newestMtime(entry: string): number {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return /\.test\.tsx?$/.test(entry) ? 0 : stat.mtimeMs;
  let newest = 0;
  for (const name of readdirSync(entry))
    newest = Math.max(newest, newestMtime(path.join(entry, name)));
  return newest;
}

function buildIsStale(): boolean {
  if (!existsSync(SERVE_ENTRY)) return true;
  const built = statSync(SERVE_ENTRY).mtimeMs;
  return BUILD_INPUTS.some((input) => existsSync(input) && newestMtime(input) > built);
}

/** Only one process builds at a time: instances started together on a fresh checkout take turns. */
const BUILD_LOCK = '.folio-build.lock';

function lockHolderAlive(): boolean {
  try {
    const pid = Number(readFileSync(path.join(BUILD_LOCK, 'pid'), 'utf8'));
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
}

async function withBuildLock(work: () => void): Promise<void> {
  for (;;) {
    try {
      mkdirSync(BUILD_LOCK);
      writeFileSync(path.join(BUILD_LOCK, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
      // Left by a builder that died: take it over.
      if (!lockHolderAlive() && statSync(BUILD_LOCK).mtimeMs < Date.now() - 2_000)
        rmSync(BUILD_LOCK, { recursive: true, force: true });
      await Bun.sleep(200);
    }
  }
  try {
    work();
  } finally {
    rmSync(BUILD_LOCK, { recursive: true, force: true });
  }
}

if (buildIsStale()) {
  await withBuildLock(() => {
    // Another instance may have built while this one waited for the lock.
    if (!buildIsStale()) return;
    const reason = existsSync(SERVE_ENTRY) ? 'sources changed' : 'no build yet';
    say('info', 'building', { reason, log: VERBOSE ? undefined : BUILD_LOG });
    const started = performance.now();
    // `bun run build` makes a production build whatever the caller's NODE_ENV says (`bun test`
    // sets NODE_ENV=test, and Vite would make a development build of it). Its hundred-odd
    // lines go to a file (or, with --verbose, to the terminal); what matters is said here.
    mkdirSync(path.dirname(BUILD_LOG), { recursive: true });
    const build = Bun.spawnSync(['bun', 'run', 'build'], {
      stdout: VERBOSE ? 'inherit' : 'pipe',
      stderr: VERBOSE ? 'inherit' : 'pipe',
    });
    if (!VERBOSE)
      writeFileSync(
        BUILD_LOG,
        `${build.stdout?.toString() ?? ''}${build.stderr?.toString() ?? ''}`,
      );
    if (build.exitCode !== 0) {
      const tail = VERBOSE
        ? ''
        : readFileSync(BUILD_LOG, 'utf8').trim().split('\n').slice(-30).join('\n');
      if (tail) console.error(tail);
      say('error', 'the build failed', { log: VERBOSE ? undefined : BUILD_LOG });
      process.exit(build.exitCode ?? 1);
    }
    say('info', 'built', { seconds: Number(((performance.now() - started) / 1000).toFixed(1)) });
  });
}

// What the build was made for: libraries that still look at it at run time agree.
process.env.NODE_ENV = 'production';
try {
  await import(path.resolve(SERVE_ENTRY));
} catch (error) {
  // A start that cannot go on (a bad variable: "Invalid environment: PORT: …") is one line
  // that says why, like the server's own refusals; a stack of the bundle says nothing more.
  say('error', `cannot start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
