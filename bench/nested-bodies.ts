// `bun bench/nested-bodies.ts [--no-build] [--bodies 20] [--seconds 8]`: how long a visitor's
// cached page takes while anonymous action calls with deeply nested bodies arrive (issue 24's
// second finding). A server as the README starts it on a throw-away SQLite database; a visitor
// reads a cached page back to back, first alone, then while `--bodies` calls to an editor-only
// action and as many to the public sign-in arrive at once, wave after wave, each a 2 MB `[[[…]]]`.
// Prints the visitor's median, p99 and worst per phase, and the server's peak RSS. All traffic
// goes to 127.0.0.1; the server is stopped by PID and its database dropped before it exits.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startFolio } from '../tests/harness';

const PAGE = '/writing-in-markdown';
const DEPTH = 1_000_000;

if (Bun.argv[2] === '--attack') await attack(Bun.argv.slice(3));

const { values } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    bodies: { type: 'string', default: '20' },
    seconds: { type: 'string', default: '8' },
  },
});
const BODIES = Math.max(1, Math.min(100, Number(values.bodies)));
const SECONDS = Math.max(1, Math.min(60, Number(values.seconds)));

if (!values['no-build']) {
  const build = Bun.spawnSync(['bun', 'run', 'build'], { stdout: 'ignore', stderr: 'inherit' });
  if (build.exitCode !== 0) process.exit(1);
}

/** The action ids the build's browser code calls (`<module>#<name>`). */
async function actionIds(): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for await (const file of new Bun.Glob('dist/public/assets/*.js').scan('.'))
    for (const [, id, name] of (await Bun.file(file).text()).matchAll(
      /([0-9a-f]{12})#(autosaveDraft|signIn)\b/g,
    ))
      if (id && name) ids[name] = id;
  if (!ids.autosaveDraft || !ids.signIn) throw new Error('the build names no autosaveDraft/signIn');
  return ids;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

function summary(latencies: number[]): string {
  const sorted = [...latencies].sort((a, b) => a - b);
  const ms = (n: number) => `${n.toFixed(1)} ms`;
  return `${sorted.length} requests, median ${ms(quantile(sorted, 0.5))}, p99 ${ms(quantile(sorted, 0.99))}, worst ${ms(sorted.at(-1) ?? Number.NaN)}`;
}

function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

const folio = await startFolio();
try {
  const ids = await actionIds();
  const visit = async (until: number): Promise<number[]> => {
    const latencies: number[] = [];
    while (performance.now() < until) {
      const started = performance.now();
      const response = await fetch(`${folio.url}${PAGE}`);
      await response.arrayBuffer();
      latencies.push(performance.now() - started);
    }
    return latencies;
  };
  // Warm: the page is rendered once and served from the cache after.
  for (let i = 0; i < 20; i += 1) await (await fetch(`${folio.url}${PAGE}`)).arrayBuffer();

  const idle = await visit(performance.now() + SECONDS * 1000);
  console.log(`idle:                ${summary(idle)}`);

  // The calls come from a process of their own, as they would from another machine: in this
  // one, sending 40 MB a wave would slow the visitor's own fetches and be counted against Folio.
  const attacker = Bun.spawn(
    ['bun', import.meta.path, '--attack', folio.url, ids.autosaveDraft ?? '', ids.signIn ?? ''],
    {
      stdout: 'pipe',
      stderr: 'inherit',
      env: { ...process.env, BODIES: String(BODIES), SECONDS: String(SECONDS) },
    },
  );
  let peakRss = rssMb(folio.pid);
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, rssMb(folio.pid));
  }, 50);
  await Bun.sleep(200);
  const attacked = await visit(performance.now() + SECONDS * 1000);
  const answered = (await new Response(attacker.stdout).text()).trim();
  await attacker.exited;
  clearInterval(sampler);
  console.log(`${BODIES} nested at once: ${summary(attacked)}`);
  console.log(`nested calls answered: ${answered}; server peak RSS ${peakRss.toFixed(0)} MB`);
} finally {
  await folio.stop();
}

/**
 * The attacking process: waves of `BODIES` calls at once, half to an editor-only action and
 * half to the public sign-in, for `SECONDS`; prints how they were answered, then exits.
 */
async function attack([url, autosaveId, signInId]: string[]): Promise<never> {
  const bodies = Number(process.env.BODIES);
  const until = performance.now() + Number(process.env.SECONDS) * 1000 + 200;
  const nested = '['.repeat(DEPTH) + ']'.repeat(DEPTH);
  const statuses = new Map<number, number>();
  while (performance.now() < until) {
    await Promise.all(
      Array.from({ length: bodies }, async (_, i) => {
        const [name, id] = i % 2 === 0 ? ['autosaveDraft', autosaveId] : ['signIn', signInId];
        let status = 0;
        try {
          const response = await fetch(`${url}${PAGE}`, {
            method: 'POST',
            headers: {
              origin: url ?? '',
              'content-type': 'text/plain;charset=UTF-8',
              'x-folio-action': `/RSC/F/${id}/${name}.txt`,
            },
            body: nested,
            signal: AbortSignal.timeout(30_000),
          });
          await response.arrayBuffer();
          status = response.status;
        } catch {
          // No answer (reset or timed out): counted as 0.
        }
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }),
    );
  }
  console.log([...statuses].map(([status, n]) => `${n} × ${status || 'no answer'}`).join(', '));
  process.exit(0);
}
