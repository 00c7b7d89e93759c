// Faults: a crash in the middle of publishing, and SIGTERM in the middle of traffic.

import { Database } from 'bun:sqlite';
import { describe, expect, test } from 'bun:test';
import { createContentStore } from '../../src/lib/content';
import { openDatabase } from '../../src/lib/db';
import { HAS_BUILD, seededDatabase, startBuiltServer } from './server-harness';

describe('kill -9 during a burst of publishes', () => {
  test('leaves an intact database where every page is one whole acknowledged version', async () => {
    const dbPath = seededDatabase();
    const child = Bun.spawn(['bun', 'tests/integration/publish-burst.ts', dbPath], {
      stdout: 'pipe',
    });
    let acknowledged = 0;
    const reader = (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of child.stdout) {
        for (const line of decoder.decode(chunk).split('\n')) if (line) acknowledged = Number(line);
      }
    })();
    while (acknowledged < 20) await Bun.sleep(10);
    child.kill('SIGKILL');
    await child.exited;
    await reader;

    const raw = new Database(dbPath);
    expect(
      raw.query<{ integrity_check: string }, []>('PRAGMA integrity_check').get()?.integrity_check,
    ).toBe('ok');
    raw.close();
    const store = createContentStore(openDatabase(`sqlite:${dbPath}`));
    for (const slug of ['crash-a', 'crash-b', 'crash-c', 'crash-d', 'crash-e']) {
      const page = store.getPage(slug, { draft: false });
      const round = Number(/^version (\d+) of /.exec(page?.bodyMarkdown ?? '')?.[1]);
      // Every acknowledged round is there; at most the one in flight went further.
      expect(round).toBeGreaterThanOrEqual(acknowledged);
      expect(round).toBeLessThanOrEqual(acknowledged + 1);
      expect(page?.title).toBe(`Round ${round}`);
      expect(page?.bodyMarkdown).toBe(`version ${round} of ${slug}`);
    }
  }, 30_000);
});

describe.skipIf(!HAS_BUILD)('SIGTERM under load (needs `bun run build`)', () => {
  test('finishes every request it accepted, then exits 0', async () => {
    const server = await startBuiltServer({});
    const outcomes = { ok: 0, refused: 0, cut: [] as string[], otherStatus: 0 };
    let stopAt = Number.POSITIVE_INFINITY;
    async function visitor() {
      while (Date.now() < stopAt + 1500) {
        try {
          const response = await fetch(`${server.url}/about`);
          await response.text();
          if (response.status === 200) outcomes.ok += 1;
          else outcomes.otherStatus += 1;
        } catch (error) {
          const code = (error as { code?: string }).code ?? String(error);
          // After the listener closed, new connections are refused: that is not a cut-off.
          if ((code === 'ConnectionRefused' || code === 'ECONNREFUSED') && Date.now() >= stopAt)
            outcomes.refused += 1;
          else outcomes.cut.push(code);
          await Bun.sleep(5);
        }
      }
    }
    const visitors = Array.from({ length: 8 }, visitor);
    await Bun.sleep(700);
    stopAt = Date.now();
    const exit = server.stop();
    await Promise.all(visitors);
    await exit;
    console.log('SIGTERM under load:', JSON.stringify({ ...outcomes, cut: outcomes.cut.length }));
    expect(outcomes.cut).toEqual([]);
    expect(outcomes.otherStatus).toBe(0);
    expect(outcomes.ok).toBeGreaterThan(20);
    expect(server.log()).toContain('"msg":"shutting down"');
    expect(server.exitCode()).toBe(0);
  }, 30_000);
});
