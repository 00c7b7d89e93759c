import { describe, expect, test } from 'bun:test';
import { PREFETCH_CONCURRENCY, STATIC_PREFETCH_STALE_TIME_MS } from './constants';
import { createPrefetchQueue, type PrefetchTarget } from './prefetch-queue';

function harness() {
  let clock = 0;
  const started: string[] = [];
  const pending = new Map<string, { resolve: () => void; reject: () => void }>();
  const queue = createPrefetchQueue({
    now: () => clock,
    fetchRoute: (target: PrefetchTarget) =>
      new Promise<void>((resolve, reject) => {
        started.push(target.path);
        pending.set(target.path, { resolve, reject });
      }),
  });
  const finish = async (path: string, ok = true) => {
    const entry = pending.get(path);
    pending.delete(path);
    if (ok) entry?.resolve();
    else entry?.reject();
    await Bun.sleep(0);
  };
  return { queue, started, finish, advance: (ms: number) => (clock += ms) };
}

const page = (path: string): PrefetchTarget => ({ path, kind: 'static' });

describe('prefetch queue', () => {
  test('never more than five in flight; the rest wait and all are fetched in order', async () => {
    const h = harness();
    for (let i = 0; i < 20; i++) h.queue.enqueue(page(`/p${i}`));
    expect(h.started).toHaveLength(PREFETCH_CONCURRENCY);
    expect(h.queue.inFlightCount).toBe(5);
    for (let i = 0; i < 20; i++) {
      await h.finish(`/p${i}`);
      expect(h.queue.inFlightCount).toBeLessThanOrEqual(5);
    }
    expect(h.started).toEqual(Array.from({ length: 20 }, (_, i) => `/p${i}`));
  });

  test('a link that leaves the viewport before its turn is dropped; hover moves to the front', async () => {
    const h = harness();
    for (let i = 0; i < 8; i++) h.queue.enqueue(page(`/p${i}`));
    h.queue.cancel('/p6');
    h.queue.prioritise(page('/p7'));
    expect(h.queue.waitingPaths).toEqual(['/p7', '/p5']);
    await h.finish('/p0');
    expect(h.started.at(-1)).toBe('/p7');
  });

  test('a static route is fresh for 300 s, then fetched again; a dynamic route is never prefetched', async () => {
    const h = harness();
    h.queue.enqueue(page('/about'));
    await h.finish('/about');
    h.queue.enqueue(page('/about'));
    expect(h.started).toEqual(['/about']);
    h.advance(STATIC_PREFETCH_STALE_TIME_MS - 1);
    h.queue.enqueue(page('/about'));
    expect(h.started).toEqual(['/about']);
    h.advance(1);
    h.queue.enqueue(page('/about'));
    expect(h.started).toEqual(['/about', '/about']);
    h.queue.enqueue({ path: '/preview/about', kind: 'dynamic' });
    expect(h.started).not.toContain('/preview/about');
  });

  test('the same target is not queued twice, and a failed prefetch is not fresh', async () => {
    const h = harness();
    h.queue.enqueue(page('/a'));
    h.queue.enqueue(page('/a'));
    expect(h.started).toEqual(['/a']);
    await h.finish('/a', false);
    h.queue.enqueue(page('/a'));
    expect(h.started).toEqual(['/a', '/a']);
  });

  test('freshness counts from the request start, as Waku counts its ttl; isFresh takes a time', async () => {
    const h = harness();
    h.queue.enqueue(page('/slow'));
    h.advance(2_000);
    await h.finish('/slow');
    expect(h.queue.isFresh(page('/slow'), STATIC_PREFETCH_STALE_TIME_MS - 1)).toBe(true);
    expect(h.queue.isFresh(page('/slow'), STATIC_PREFETCH_STALE_TIME_MS)).toBe(false);
    expect(h.queue.isFresh({ path: '/slow', kind: 'dynamic' }, 0)).toBe(false);
  });

  test('a cancelled target can be queued again, and prioritising a fresh target fetches nothing', async () => {
    const h = harness();
    for (let i = 0; i < 6; i++) h.queue.enqueue(page(`/p${i}`));
    h.queue.cancel('/p5');
    expect(h.queue.waitingPaths).toEqual([]);
    h.queue.enqueue(page('/p5'));
    expect(h.queue.waitingPaths).toEqual(['/p5']);
    await h.finish('/p0');
    expect(h.started).toContain('/p5');
    await h.finish('/p5');
    h.queue.prioritise(page('/p5'));
    expect(h.started.filter((path) => path === '/p5')).toHaveLength(1);
  });
});
