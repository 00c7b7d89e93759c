// `folio webhook …` (docs/decisions/0046) in the CLI's own style: runCli on a throw-away
// database of the run's engine, output captured. The secret is printed by `add` only.
import { afterEach, expect, test } from 'bun:test';
import { openTestDatabase } from '../../tests/databases';
import { listAudit } from '../lib/audit/trail';
import { enqueueDeliveries } from '../lib/webhooks/store';
import { fileSystemIo, runCli } from './folio';

const opened: Awaited<ReturnType<typeof openTestDatabase>>[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.dispose().catch(() => undefined);
});

async function cli() {
  const db = await openTestDatabase();
  opened.push(db);
  const out: string[] = [];
  const err: string[] = [];
  const run = (...argv: string[]) =>
    runCli(argv, async () => db, {
      ...fileSystemIo,
      stdout: (text) => out.push(text),
      stderr: (text) => err.push(text),
      readPassword: async () => '',
      readFile: (path) => Bun.file(path).text(),
      siteUrl: 'https://folio.example',
    });
  return { run, out, err, db };
}

test('webhook add prints the secret once; list, deliveries, redeliver and remove', async () => {
  const { run, out, err, db } = await cli();
  expect(
    await run(
      'webhook',
      'add',
      'https://hooks.example.com/folio',
      '--events',
      'page.published,settings.changed',
    ),
  ).toBe(0);
  const added = out.join('');
  expect(added).toContain(
    'webhook 1 added: https://hooks.example.com/folio (page.published, settings.changed)',
  );
  const secret = /secret: (whsec_\S+)/.exec(added)?.[1] ?? '';
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

  out.length = 0;
  expect(await run('webhook', 'list')).toBe(0);
  expect(out.join('')).toBe(
    '1  on  https://hooks.example.com/folio  page.published,settings.changed\n',
  );
  expect(out.join('')).not.toContain(secret);

  expect(await run('webhook', 'deliveries', '1')).toBe(0);
  expect(out.at(-1)).toBe('no deliveries yet\n');
  await enqueueDeliveries(
    db.query,
    { eventId: 9, type: 'settings.changed', pageKey: 0, body: '{}' },
    new Date('2026-11-27T00:00:00Z'),
  );
  expect(await run('webhook', 'deliveries', '1')).toBe(0);
  expect(out.at(-1)).toMatch(
    /^1 {2}2026-11-27T00:00:00\.000Z {2}settings\.changed +pending +status=- {2}attempts=0 {2}next=2026-11-27T00:00:00\.000Z\n$/,
  );
  // Still pending: already on its way, not queued twice.
  expect(await run('webhook', 'redeliver', '1')).toBe(1);
  expect(err.at(-1)).toContain('Delivery 1 is still being tried.');
  await db.query`UPDATE webhook_deliveries SET state = 'failed'`;
  expect(await run('webhook', 'redeliver', '1')).toBe(0);
  expect(out.at(-1)).toContain('delivery 1 (settings.changed) queued again');

  expect(await run('webhook', 'remove', '1')).toBe(0);
  expect(out.at(-1)).toBe('webhook 1 removed (https://hooks.example.com/folio)\n');
  expect(await run('webhook', 'list')).toBe(0);
  expect(out.at(-1)).toBe('no webhooks\n');

  const actions = (await listAudit(db.query, {})).entries.map((entry) => entry.action);
  expect(actions).toEqual(
    expect.arrayContaining(['webhook.added', 'webhook.redelivered', 'webhook.removed']),
  );
});

test('webhook refusals are one line and exit 1; bad arguments exit 2', async () => {
  const { run, err } = await cli();
  expect(await run('webhook', 'add', 'http://127.0.0.1:8080/', '--events', 'page.published')).toBe(
    1,
  );
  expect(err.at(-1)).toContain('not on the public internet');
  expect(await run('webhook', 'add', 'https://ok.example/', '--events', 'page.exploded')).toBe(1);
  expect(err.at(-1)).toContain('Unknown event page.exploded');
  expect(await run('webhook', 'add', 'https://ok.example/')).toBe(2);
  expect(await run('webhook', 'remove', '7')).toBe(1);
  expect(err.at(-1)).toContain('There is no webhook 7.');
  expect(await run('webhook', 'deliveries', 'seven')).toBe(2);
  expect(await run('webhook', 'redeliver', '3')).toBe(1);
  expect(err.join('')).not.toContain('    at ');
});
