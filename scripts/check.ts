// `bun run check`: everything a change must pass, as fast as two cores allow. Three rounds, each
// of steps side by side, every step's output kept and printed whole when it ends, under its
// name, and the run stopped after the first round with a failure, naming the step:
// 1. the type check, the lint and the build (none reads what another writes: tsc and Biome
//    read sources, the build writes dist/);
// 2. `bun run test`: bun test, both engines at once (scripts/test-engines.ts);
// 3. `bun run test:e2e`: Playwright, both engines at once.
// Two halves at a time is what two cores take: all four side by side (bun test beside
// Playwright) took 444 s on a fresh clone where these rounds took 304 s (one run each, today,
// with other work on the machine), Chromium and the
// servers under test competing for the same cores.
import { runCaptured } from './captured';

const ROUNDS = [
  [
    { name: 'typecheck', command: ['bun', 'run', 'typecheck'] },
    { name: 'lint', command: ['bun', 'run', 'lint'] },
    { name: 'build', command: ['bun', 'run', 'build'] },
  ],
  [{ name: 'test', command: ['bun', 'run', 'test'] }],
  [{ name: 'test:e2e', command: ['bun', 'run', 'test:e2e'] }],
];

type Step = { name: string; command: string[] };

const startedAt = performance.now();
const since = (at: number) => `${((performance.now() - at) / 1000).toFixed(0)} s`;

async function buffered({ name, command }: Step) {
  const started = performance.now();
  const { code, output } = await runCaptured(command);
  const verdict = code === 0 ? 'passed' : `FAILED (exit ${code})`;
  process.stderr.write(
    `\n── check: ${name} ${verdict} in ${since(started)} ──\n${output.trimEnd()}\n`,
  );
  return { name, code, seconds: since(started) };
}

for (const round of ROUNDS) {
  console.error(`\ncheck: ${round.map((step) => step.name).join(', ')} side by side`);
  const results = await Promise.all(round.map(buffered));
  const failed = results.filter((step) => step.code !== 0);
  console.error(
    `check: ${results.map((step) => `${step.name} ${step.code === 0 ? 'passed' : 'FAILED'} (${step.seconds})`).join(', ')}`,
  );
  if (failed.length > 0) {
    console.error(`check: FAILED: ${failed.map((step) => step.name).join(', ')}`);
    process.exit(failed[0]?.code ?? 1);
  }
}
console.error(`check: passed in ${since(startedAt)}`);
