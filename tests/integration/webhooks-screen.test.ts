// The webhooks screen (/preview?webhooks, decision 0046) through the server as the README starts
// it, with forms posted as a browser without JavaScript posts them: an Administrator adds an
// endpoint and sees its secret once, turns it off and on, reads its delivery log, redelivers
// and removes it, each in the audit trail; a refused URL is a 422 in words; an Editor gets a
// 403 for the screen and for a forged post; a post from another origin is refused; and the
// dashboard says when the deliverer turned an endpoint off.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { addEditor, createSession } from '../../src/lib/editors/accounts';
import { SESSION_COOKIE } from '../../src/lib/http/routes';
import { TEST_ENGINE } from '../databases';
import { formWithButton, submitForm } from '../forms';
import { type RunningFolio, startFolio } from '../harness';

const SCREEN = '/preview?webhooks';
let folio: RunningFolio;
let admin = '';
let editor = '';

beforeAll(async () => {
  folio = await startFolio();
  const db = await folio.database();
  // The first person is the Owner; an Administrator and an Editor after.
  await addEditor(db, 'owner@hooks.example', 'the hooks passphrase');
  for (const [role, email] of [
    ['administrator', 'admin@hooks.example'],
    ['editor', 'editor@hooks.example'],
  ] as const) {
    const person = await addEditor(db, email, 'the hooks passphrase', { role });
    const session = await createSession(db.query, person.id);
    if (role === 'administrator') admin = `${SESSION_COOKIE}=${session.id}`;
    else editor = `${SESSION_COOKIE}=${session.id}`;
  }
}, 90_000);

afterAll(async () => {
  await folio?.stop();
});

const open = (path: string, cookie: string) =>
  fetch(`${folio.url}${path}`, { headers: { cookie, accept: 'text/html' } });

async function post(
  button: string,
  cookie: string,
  set: Record<string, string> = {},
  { path = SCREEN, from = admin, headers = {} as Record<string, string> } = {},
) {
  const form = await formWithButton(await (await open(path, from)).text(), button);
  return submitForm(`${folio.url}${path}`, form, { cookie, set, button, headers });
}

async function endpoints() {
  const db = await folio.database();
  return db.query<{ id: number | string; url: string; enabled: number | string }>`
    SELECT id, url, enabled FROM webhook_endpoints ORDER BY id`;
}

async function auditActions() {
  const db = await folio.database();
  const rows = await db.query<{ action: string }>`
    SELECT action FROM audit_entries WHERE action LIKE 'webhook.%' ORDER BY id`;
  return rows.map((row) => row.action);
}

describe(`the webhooks screen on ${TEST_ENGINE}`, () => {
  test('an Administrator adds a webhook and sees its secret once', async () => {
    const screen = await open(SCREEN, admin);
    expect(screen.status).toBe(200);
    const html = await screen.text();
    expect(html).toContain('page.scheduled_publish_failed');
    const added = await post('Add webhook', admin, {
      url: 'https://hooks.example.com/folio',
      events: 'page.published',
    });
    expect(added.status).toBe(200);
    const answer = await added.text();
    const secret = /whsec_[A-Za-z0-9+/]{43}=/.exec(answer)?.[0];
    expect(secret).toBeDefined();
    expect(answer).toContain('shown only this once');
    const [row] = await endpoints();
    expect(row?.url).toBe('https://hooks.example.com/folio');
    // Never again: not on the screen, nor its log.
    const again = await (await open(SCREEN, admin)).text();
    expect(again).toContain('https://hooks.example.com/folio');
    expect(again).not.toContain(secret ?? 'whsec_');
    expect(await (await open(`${SCREEN}&log=${row?.id}`, admin)).text()).not.toContain('whsec_');
    expect(await auditActions()).toEqual(['webhook.added']);
  });

  test('a URL to a private address is refused in words, with what was typed kept (422)', async () => {
    const refused = await post('Add webhook', admin, {
      url: 'http://169.254.169.254/latest/meta-data',
      events: 'page.published',
    });
    expect(refused.status).toBe(422);
    const html = await refused.text();
    expect(html).toContain('not on the public internet');
    expect(html).toContain('http://169.254.169.254/latest/meta-data');
    const noEvents = await post('Add webhook', admin, { url: 'https://ok.example/', events: '' });
    expect(noEvents.status).toBe(422);
    expect(await noEvents.text()).toContain('Choose at least one event');
    // A second webhook to the same URL would send every event twice (a walk-through did it).
    const twice = await post('Add webhook', admin, {
      url: 'https://hooks.example.com/folio',
      events: 'page.updated',
    });
    expect(twice.status).toBe(422);
    expect(await twice.text()).toContain('sends to this URL already');
    expect(await endpoints()).toHaveLength(1);
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('turn off and on, the delivery log, redeliver, remove: each a 303 with a notice', async () => {
    const [row] = await endpoints();
    const id = Number(row?.id);
    const off = await post('Turn off', admin);
    expect(off.status).toBe(303);
    expect(off.headers.get('location')).toContain('notice=webhook-disabled');
    expect(Number((await endpoints())[0]?.enabled)).toBe(0);
    const on = await post('Turn on', admin);
    expect(on.headers.get('location')).toContain('notice=webhook-enabled');

    // A delivery given up, as the deliverer leaves one: in the log, with a Redeliver button.
    const db = await folio.database();
    await db.query`
      INSERT INTO webhook_deliveries (endpoint_id, event_id, type, page_key, body, created_at,
        next_at, attempts, state, last_status, last_error, latency_ms, excerpt, last_attempt_at)
      VALUES (${id}, 1, 'page.published', 1, '{}', '2026-11-27T00:00:00.000Z',
        '2026-11-27T00:00:00.000Z', 10, 'failed', 502, 'answered 502', 31, 'Bad gateway',
        '2026-11-27T00:00:00.000Z')`;
    const log = `${SCREEN}&log=${id}`;
    const html = await (await open(log, admin)).text();
    for (const shown of ['Given up', '502', '31 ms', 'Bad gateway', 'Redeliver'])
      expect(html).toContain(shown);
    const redelivered = await post('Redeliver', admin, {}, { path: log });
    expect(redelivered.status).toBe(303);
    expect(redelivered.headers.get('location')).toContain('notice=delivery-queued');
    const [queued] = await db.query<{ state: string; attempts: number | string }>`
      SELECT state, attempts FROM webhook_deliveries`;
    expect(queued?.state).toBe('pending');

    const removed = await post('Remove', admin);
    expect(removed.headers.get('location')).toContain('notice=webhook-removed');
    expect(await endpoints()).toEqual([]);
    expect(await auditActions()).toEqual([
      'webhook.added',
      'webhook.disabled',
      'webhook.enabled',
      'webhook.redelivered',
      'webhook.removed',
    ]);
  });

  test('forged forms are 4xx, never a 500: a junk id, an unknown intent, a webhook gone', async () => {
    await post('Add webhook', admin, {
      url: 'https://forged.example/hook',
      events: 'page.published',
    });
    const [row] = await endpoints();
    const junkId = await post('Turn off', admin, { webhook: '1e3' });
    expect(junkId.status).toBe(400);
    const unknownIntent = await post('Turn off', admin, { intent: 'explode' });
    expect(unknownIntent.status).toBe(400);
    const unknownEvent = await post('Add webhook', admin, {
      url: 'https://forged.example/other',
      events: '__proto__',
    });
    expect(unknownEvent.status).toBe(422);
    expect(await unknownEvent.text()).toContain('Unknown event __proto__');
    const gone = await post('Turn off', admin, { webhook: '987654' });
    expect(gone.status).toBe(303);
    expect(gone.headers.get('location')).toContain('notice=webhook-gone');
    expect(Number((await endpoints())[0]?.enabled)).toBe(1);
    await post('Remove', admin, { webhook: String(row?.id) });
    expect(await endpoints()).toEqual([]);
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('an Editor gets a 403 for the screen and for a forged add; nothing is added', async () => {
    const screen = await open(SCREEN, editor);
    expect(screen.status).toBe(403);
    expect(await screen.text()).toContain('manage webhooks');
    const forged = await post('Add webhook', editor, {
      url: 'https://editor.example/hook',
      events: 'page.published',
    });
    expect(forged.status).toBe(403);
    expect(await endpoints()).toEqual([]);
    expect((await auditActions()).filter((action) => action === 'webhook.added')).toHaveLength(2);
  });

  test('a post from another origin is refused before the action runs', async () => {
    const crossSite = await post(
      'Add webhook',
      admin,
      { url: 'https://cross.example/hook', events: 'page.published' },
      { headers: { origin: 'https://evil.example' } },
    );
    expect(crossSite.status).toBe(403);
    expect(await endpoints()).toEqual([]);
  });

  test('the dashboard says when the deliverer turned a webhook off', async () => {
    const before = await (await open('/preview', admin)).text();
    expect(before).not.toContain('was turned off');
    const db = await folio.database();
    await db.query`
      INSERT INTO webhook_endpoints (url, events, secret, enabled, disabled_at, disabled_reason,
        created_at)
      VALUES ('https://down.example/hook', 'page.published', 'whsec_x', 0,
        '2026-11-27T00:00:00.000Z', '20 attempts in a row failed (last: answered 500)',
        '2026-11-27T00:00:00.000Z')`;
    const dashboard = await (await open('/preview', admin)).text();
    expect(dashboard).toContain('A webhook was turned off');
    expect(dashboard).toContain('https://down.example/hook');
    // Not for those who cannot act on it.
    expect(await (await open('/preview', editor)).text()).not.toContain('was turned off');
    expect(await (await open(SCREEN, admin)).text()).toContain('20 attempts in a row failed');
    expect(folio.unexpectedErrors()).toEqual([]);
  });
});
