// A server a whole file shares (beforeAll) outlives one test that times out: bun test SIGTERMs
// the processes of a timed-out test, and before the harness's supervisor it took the shared
// server with it, so every later test of the file failed with ECONNREFUSED.
import { expect, test } from 'bun:test';
import path from 'node:path';
import { TEST_ENGINE } from '../databases';

test('a timed-out test leaves the next test of its file a working server', async () => {
  const child = Bun.spawn(
    ['bun', 'test', '--timeout', '20000', './tests/integration/fixtures/timed-out-test.ts'],
    {
      cwd: path.resolve(import.meta.dir, '../..'),
      // The fixture's server runs on this half's engine.
      env: { ...process.env, FOLIO_TEST_ENGINE: TEST_ENGINE },
      stdout: 'pipe',
      stderr: 'pipe',
    },
  );
  const [code, stdout, stderr] = await Promise.all([
    child.exited,
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
  ]);
  const report = `${stdout}${stderr}`;
  // The first test did time out (the point of the fixture)…
  expect(report, report).toContain('(fail) a test that outlives its limit');
  expect(report, report).toContain('this test timed out after 500ms');
  // …and the next one still had answers.
  expect(report, report).toContain('(pass) the next test of the file');
  expect(report, report).toMatch(/\b1 pass\b/);
  expect(report, report).toMatch(/\b1 fail\b/);
  expect(code).toBe(1);
}, 60_000);
