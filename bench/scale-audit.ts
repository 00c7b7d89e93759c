// `FOLIO_TEST_ENGINE=sqlite|postgres bun bench/scale-audit.ts [entries]`: the audit trail's reads at
// scale (decision 0041) — ten years of entries (1 000 000 by default: 50 people, 10 kinds, 100 000
// pages) in a throw-away database, then each of the screen's filters and one retention round,
// median of five. Every read should stay a range of an index: a few milliseconds at most.

import { listAudit, pruneAudit } from '../src/lib/audit/trail';
import { openTestDatabase } from '../tests/databases';

const N = Number(process.argv[2] ?? 1_000_000);
const db = await openTestDatabase();
const t0 = performance.now();
// Ten years of entries, one every ~5 minutes: 50 people, 20 kinds, 100 000 pages.
const kinds = [
  'sign-in',
  'sign-out',
  'page.published',
  'page.unpublished',
  'settings.changed',
  'media.uploaded',
  'share-link.created',
  'sign-in.failed',
  'page.restored',
  'page.deleted',
];
const start = Date.parse('2016-11-26T00:00:00Z');
const step = Math.floor((10 * 365 * 86_400_000) / N);
const B = 5000;
if (db.engine === 'postgres') {
  await db.query.unsafe(`INSERT INTO audit_entries (at, action, actor_email, page_id, slug, address, detail)
    SELECT to_char((timestamp '2016-11-26' + (i::bigint * ${step}) * interval '1 millisecond'), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      (ARRAY['sign-in','sign-out','page.published','page.unpublished','settings.changed','media.uploaded','share-link.created','sign-in.failed','page.restored','page.deleted'])[i % 10 + 1],
      'p' || (i % 50) || '@example.com', (i::bigint * 7919) % 100000, 'page-' || ((i::bigint * 7919) % 100000), '203.0.113.1', '{}'
    FROM generate_series(0, ${N - 1}) AS i`);
  await db.query.unsafe('ANALYZE audit_entries');
} else
  for (let from = 0; from < N; from += B) {
    await db.transaction(async (q) => {
      for (let i = from; i < Math.min(N, from + B); i++) {
        const page = (i * 7919) % 100_000;
        await q`INSERT INTO audit_entries (at, action, actor_email, page_id, slug, address, detail)
        VALUES (${new Date(start + i * step).toISOString()}, ${kinds[i % kinds.length]}, ${`p${i % 50}@example.com`}, ${page}, ${`page-${page}`}, '203.0.113.1', '{}')`;
      }
    });
  }
console.log(`inserted ${N} in ${((performance.now() - t0) / 1000).toFixed(1)} s (${db.engine})`);
const time = async (name: string, work: () => Promise<unknown>) => {
  const runs: number[] = [];
  let out: unknown;
  for (let r = 0; r < 5; r++) {
    const t = performance.now();
    out = await work();
    runs.push(performance.now() - t);
  }
  runs.sort((a, b) => a - b);
  const n = (out as { entries?: unknown[] }).entries?.length;
  console.log(`${name.padEnd(48)} median ${runs[2]?.toFixed(2)} ms  (${n ?? out} rows)`);
};
await time('newest 50', () => listAudit(db.query, {}));
await time('50 older than the middle id', () => listAudit(db.query, {}, { before: N / 2 }));
await time('who (one of 50 people)', () => listAudit(db.query, { who: 'p7@example.com' }));
await time('what (sign-in.failed)', () => listAudit(db.query, { what: 'sign-in.failed' }));
await time('page (an address, no page row)', () => listAudit(db.query, { page: 'page-4242' }));
await time('since 30d', () =>
  listAudit(db.query, { since: new Date(start + (N - 10_000) * step).toISOString() }),
);
await time('since + who + what', () =>
  listAudit(db.query, {
    since: '2020-01-01T00:00:00Z',
    who: 'p7@example.com',
    what: 'page.published',
  }),
);
await time('who + what (a match)', () =>
  listAudit(db.query, { who: 'p7@example.com', what: 'sign-in.failed' }),
);
await time('page + what', () => listAudit(db.query, { page: 'page-4242', what: 'sign-in' }));
await time('who + what (rare mix: none match)', () =>
  listAudit(db.query, { who: 'p7@example.com', what: 'sign-out' }),
);
for (const [name, plan] of [
  [
    'who',
    'EXPLAIN QUERY PLAN SELECT id FROM audit_entries WHERE 1 = 1 AND actor_email = ? AND id < ? ORDER BY id DESC LIMIT 51',
  ],
] as const) {
  if (db.engine === 'sqlite')
    console.log(name, JSON.stringify(await db.query.unsafe(plan.replace(/\?/g, "'x'"))));
}
await time('prune one round (4 × 250, a year kept)', () =>
  pruneAudit(db.query, { retentionDays: 365, now: new Date('2026-11-26T00:00:00Z') }),
);
await db.dispose();
