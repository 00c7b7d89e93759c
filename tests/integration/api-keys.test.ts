// API keys and the content API's rate limits (issue 29, docs/decisions/0047), against two servers
// started as the README starts them on one database of the run's engine, with small limits
// (6 requests an hour without a key, 30 with one). Each test's anonymous client has an address
// of its own: the servers trust one proxy, and the test says the address in X-Forwarded-For.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { createApiKey } from '../../src/lib/api-keys/api-keys';
import { addEditor, createSession } from '../../src/lib/editors/accounts';
import { SESSION_COOKIE } from '../../src/lib/http/routes';
import { formsIn, formWithButton, submitForm } from '../forms';
import {
  type RunningFolio,
  runFolioCli,
  seededDatabase,
  startTwoFolios,
  waitFor,
} from '../harness';

const ADDRESS_LIMIT = 6;
const KEY_LIMIT = 30;
const WINDOW = 3600;

let a: RunningFolio;
let b: RunningFolio;
let admin = '';
let editor = '';

beforeAll(async () => {
  [a, b] = await startTwoFolios(await seededDatabase(), {
    env: {
      API_RATE_LIMIT: String(ADDRESS_LIMIT),
      API_KEY_RATE_LIMIT: String(KEY_LIMIT),
      API_RATE_WINDOW_SECONDS: String(WINDOW),
      TRUST_PROXY: '1',
      HOST: '127.0.0.1',
    },
  });
  const db = await a.database();
  await addEditor(db, 'owner@keys.example', 'the keys passphrase');
  const administrator = await addEditor(db, 'admin@keys.example', 'the keys passphrase', {
    role: 'administrator',
  });
  const anEditor = await addEditor(db, 'editor@keys.example', 'the keys passphrase', {
    role: 'editor',
  });
  admin = `${SESSION_COOKIE}=${(await createSession(db.query, administrator.id)).id}`;
  editor = `${SESSION_COOKIE}=${(await createSession(db.query, anEditor.id)).id}`;
}, 120_000);
afterAll(async () => {
  await a?.stop();
  await b?.stop();
});

/**
 * Windows are an hour long and start on the hour: a test that counts to a limit does not start
 * in the window's last minute (rare; it then waits for the next one).
 */
/**
 * A test that may wait for the next window (up to 70 s in the last minute of one) has this
 * long: the suite's 20 s timed one out in a CI run that began at 04:59.
 */
const WAITS_FOR_A_WINDOW_MS = 100_000;

async function awayFromWindowEdge(): Promise<void> {
  await waitFor(() => (WINDOW - ((Date.now() / 1000) % WINDOW) > 60 ? true : undefined), {
    timeoutMs: 70_000,
    what: 'a rate-limit window with more than a minute left',
  });
}

let addresses = 0;
/** A client address of the test's own (documentation range), counted apart from the others. */
const newAddress = () => `198.51.100.${++addresses}`;

const api = (
  server: RunningFolio,
  address: string,
  { path = '/api/v1/posts', headers = {}, method = 'GET' } = {} as {
    path?: string;
    headers?: Record<string, string>;
    method?: string;
  },
) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: { 'x-forwarded-for': address, ...headers },
    redirect: 'manual',
  });

async function errorOf(response: Response): Promise<{ code: string; message: string }> {
  const body = (await response.json()) as { error: { code: string; message: string } };
  return body.error;
}

describe('without a key', () => {
  test(
    'an address gets its limit (304s counted, preflights not), then a 429 that says when',
    async () => {
      await awayFromWindowEdge();
      const address = newAddress();
      // Preflights are the browser's: never counted.
      for (let i = 0; i < 3; i++) {
        const preflight = await api(a, address, {
          method: 'OPTIONS',
          headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
        });
        expect(preflight.status).toBe(204);
        expect(preflight.headers.get('access-control-allow-headers')).toContain('Authorization');
      }
      const first = await api(a, address);
      expect(first.status).toBe(200);
      await first.arrayBuffer();
      expect(first.headers.get('ratelimit-policy')).toBe(
        `"address";q=${ADDRESS_LIMIT};w=${WINDOW}`,
      );
      expect(first.headers.get('ratelimit')).toMatch(
        new RegExp(`^"address";r=${ADDRESS_LIMIT - 1};t=\\d+$`),
      );
      expect(first.headers.get('access-control-expose-headers')).toContain('RateLimit');
      const etag = first.headers.get('etag') ?? '';
      // A client whose copy is current costs little, but it is a request.
      for (let i = 1; i < ADDRESS_LIMIT; i++) {
        const again = await api(a, address, { headers: { 'if-none-match': etag } });
        expect(again.status).toBe(304);
        expect(again.headers.get('ratelimit')).toStartWith(`"address";r=${ADDRESS_LIMIT - 1 - i};`);
      }
      const refused = await api(a, address, { headers: { 'if-none-match': etag } });
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(WINDOW);
      expect(refused.headers.get('ratelimit')).toBe(`"address";r=0;t=${retryAfter}`);
      expect(refused.headers.get('cache-control')).toBe('no-store');
      expect(refused.headers.get('access-control-allow-origin')).toBe('*');
      expect(refused.headers.get('content-type')).toStartWith('application/json');
      const error = await errorOf(refused);
      expect(error.code).toBe('rate_limited');
      expect(error.message).toContain(`${ADDRESS_LIMIT} requests`);
      // Another address is counted apart.
      expect((await api(a, newAddress())).status).toBe(200);
    },
    WAITS_FOR_A_WINDOW_MS,
  );

  test(
    'a second server on the same database shares the count',
    async () => {
      await awayFromWindowEdge();
      const address = newAddress();
      for (let i = 0; i < ADDRESS_LIMIT; i++) {
        const response = await api(a, address);
        expect(response.status).toBe(200);
        await response.arrayBuffer();
      }
      // The other instance has not seen this client: it may let its share (a tenth of the limit,
      // here 1) through before it hears the sum, and refuses after.
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const response = await api(b, address);
        statuses.push(response.status);
        await response.arrayBuffer();
      }
      expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(1);
      expect(statuses.at(-1)).toBe(429);
    },
    WAITS_FOR_A_WINDOW_MS,
  );

  test(
    'a concurrent burst spread over both servers gets the limit and at most one share more',
    async () => {
      // Hostile pass, 2026-11-27: requests that came while an instance was asking the database
      // for the sum all went through once it answered, so 200 parallel requests over two
      // instances let 114 through where the documented bound was 66.
      await awayFromWindowEdge();
      const address = newAddress();
      const statuses = await Promise.all(
        Array.from({ length: 80 }, async (_, i) => {
          const response = await api(i % 2 ? b : a, address);
          await response.arrayBuffer();
          return response.status;
        }),
      );
      const through = statuses.filter((status) => status === 200).length;
      expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
      // limit + (N − 1) × quota, quota = ceil(limit / 10): here 6 + 1.
      expect(through).toBeGreaterThanOrEqual(ADDRESS_LIMIT);
      expect(through).toBeLessThanOrEqual(ADDRESS_LIMIT + Math.ceil(ADDRESS_LIMIT / 10));
    },
    WAITS_FOR_A_WINDOW_MS,
  );

  test(
    'an address the front door refuses (an encoded slash) is counted like any other request',
    async () => {
      await awayFromWindowEdge();
      const address = newAddress();
      const paths = ['/api/v1/pages/a%2fb', '/api/v1/pages/..%2f..%2fetc%2fpasswd'];
      for (let i = 0; i < ADDRESS_LIMIT; i++) {
        const response = await api(a, address, { path: paths[i % 2] });
        expect(response.status).toBe(404);
        expect((await errorOf(response)).code).toBe('no_such_endpoint');
        expect(response.headers.get('ratelimit-policy')).toBe(
          `"address";q=${ADDRESS_LIMIT};w=${WINDOW}`,
        );
        expect(response.headers.get('ratelimit')).toStartWith(
          `"address";r=${ADDRESS_LIMIT - 1 - i};`,
        );
      }
      const refused = await api(a, address, { path: paths[0] });
      expect(refused.status).toBe(429);
      expect((await api(a, address)).status).toBe(429);
    },
    WAITS_FOR_A_WINDOW_MS,
  );
});

describe('with a key', () => {
  test(
    'a key raises the limit, to its own count; the database holds its hash, not the key',
    async () => {
      await awayFromWindowEdge();
      const db = await a.database();
      const { key, apiKey } = await createApiKey(db, { name: 'Reader app', actor: null });
      expect(key).toMatch(/^folio_[A-Za-z0-9_-]{43}$/);
      const [row] = await db.query<
        Record<string, unknown>
      >`SELECT * FROM api_keys WHERE id = ${apiKey.id}`;
      expect(row?.key_hash).toBe(createHash('sha256').update(key).digest('hex'));
      expect(row?.prefix).toBe(key.slice(0, 14));
      for (const value of Object.values(row ?? {}))
        expect(String(value)).not.toContain(key.slice(14));

      // The address has used its limit without a key...
      const address = newAddress();
      for (let i = 0; i < ADDRESS_LIMIT; i++) await (await api(a, address)).arrayBuffer();
      expect((await api(a, address)).status).toBe(429);
      // ...the key goes on, on either server, counted as the key (up to KEY_LIMIT in all).
      const auth = { authorization: `Bearer ${key}` };
      let through = 0;
      let last: Response | null = null;
      for (let i = 0; i < KEY_LIMIT + 5; i++) {
        last = await api(i % 2 ? b : a, address, { headers: auth });
        if (last.status === 200) through++;
        else expect(last.status).toBe(429);
        if (i === 0) {
          expect(last.headers.get('ratelimit-policy')).toBe(`"key";q=${KEY_LIMIT};w=${WINDOW}`);
          // The same answer as without a key: a key changes the count, not the content.
          const anonymous = await fetch(`${a.url}/api/v1/posts`, {
            headers: { 'x-forwarded-for': newAddress() },
          });
          expect(await last.clone().text()).toBe(await anonymous.text());
        }
        await last.arrayBuffer();
      }
      // Each server refuses the key now, or after at most its share of requests it has not told
      // the other about yet.
      const share = Math.ceil(KEY_LIMIT / 10);
      for (const server of [a, b]) {
        for (let i = 0; i <= share; i++) {
          last = await api(server, address, { headers: auth });
          await last.arrayBuffer();
          if (last.status !== 200) break;
          through++;
        }
        expect(last?.status).toBe(429);
        expect(last?.headers.get('ratelimit-policy')).toStartWith('"key";');
      }
      // Two instances: the limit, and at most one instance's share (a tenth) more.
      expect(through).toBeGreaterThanOrEqual(KEY_LIMIT);
      expect(through).toBeLessThanOrEqual(KEY_LIMIT + share);
      // "Last used" is noted by the servers' flush, a second or so later, not by the requests.
      await waitFor(
        async () => {
          const [used] = await db.query<{ last_used_at: string | null }>`
          SELECT last_used_at FROM api_keys WHERE id = ${apiKey.id}`;
          return used?.last_used_at ? true : undefined;
        },
        { timeoutMs: 15_000, what: "the key's last use to be noted" },
      );
    },
    WAITS_FOR_A_WINDOW_MS,
  );

  test('an unknown key, or an Authorization that is not one, is a 401 — never anonymous', async () => {
    const address = newAddress();
    const unknown = await api(a, address, {
      headers: { authorization: `Bearer folio_${'A'.repeat(43)}` },
    });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    // Counted against the address, so it says so as every counted answer does.
    expect(unknown.headers.get('ratelimit-policy')).toBe(
      `"address";q=${ADDRESS_LIMIT};w=${WINDOW}`,
    );
    expect(unknown.headers.get('ratelimit')).toStartWith(`"address";r=${ADDRESS_LIMIT - 1};`);
    expect(unknown.headers.get('access-control-allow-origin')).toBe('*');
    expect(await errorOf(unknown)).toMatchObject({ code: 'invalid_key' });
    for (const authorization of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer not-a-key']) {
      const response = await api(a, address, { headers: { authorization } });
      expect(response.status, authorization).toBe(401);
      expect(response.headers.get('ratelimit'), authorization).toStartWith('"address";r=');
      expect((await errorOf(response)).code).toBe('invalid_key');
    }
    // Guessing keys is counted against the address, as asking is.
    for (let i = 0; i < ADDRESS_LIMIT; i++)
      await (
        await api(a, address, { headers: { authorization: `Bearer folio_${'B'.repeat(43)}` } })
      ).arrayBuffer();
    expect((await api(a, address, { headers: { authorization: 'Bearer x' } })).status).toBe(429);
  });

  test('a key in the address is refused in words', async () => {
    const response = await api(a, newAddress(), {
      path: `/api/v1/posts?key=folio_${'C'.repeat(43)}`,
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('ratelimit-policy')).toBe(
      `"address";q=${ADDRESS_LIMIT};w=${WINDOW}`,
    );
    expect(response.headers.get('ratelimit')).toStartWith(`"address";r=${ADDRESS_LIMIT - 1};`);
    const error = await errorOf(response);
    expect(error.code).toBe('key_in_address');
    expect(error.message).toContain('Authorization');
  });

  test('a key revoked with the CLI is refused (401) on both servers within seconds', async () => {
    const add = await runFolioCli(['api-key', 'add', 'Short-lived'], {
      databaseUrl: a.databaseUrl,
    });
    expect(add.code, add.stderr).toBe(0);
    // The key alone on its line on stdout (for a script), what it is on stderr after it: the
    // hostile pass saw the two run together on a terminal (not seen again since).
    expect(add.stdout).toMatch(/^folio_[A-Za-z0-9_-]{43}\n$/);
    const key = add.stdout.trim();
    expect(add.stderr).toMatch(/^API key \d+ \(Short-lived\) made: .*not shown again.*\n$/m);
    const auth = { authorization: `Bearer ${key}` };
    for (const server of [a, b])
      expect((await api(server, newAddress(), { headers: auth })).status).toBe(200);

    const list = await runFolioCli(['api-key', 'list'], { databaseUrl: a.databaseUrl });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(key.slice(0, 14));
    expect(list.stdout).toContain('Short-lived');
    expect(list.stdout).not.toContain(key);

    const revoke = await runFolioCli(['api-key', 'revoke', key.slice(0, 14)], {
      databaseUrl: a.databaseUrl,
    });
    expect(revoke.code, revoke.stderr).toBe(0);
    expect(revoke.stdout).toContain('revoked');
    for (const server of [a, b])
      await waitFor(
        async () => {
          const response = await api(server, newAddress(), { headers: auth });
          if (response.status !== 401) {
            await response.arrayBuffer();
            return undefined;
          }
          return (await errorOf(response)).message.includes('revoked') ? true : undefined;
        },
        { timeoutMs: 20_000, what: 'the revoked key to be refused' },
      );
    const again = await runFolioCli(['api-key', 'revoke', key.slice(0, 14)], {
      databaseUrl: a.databaseUrl,
    });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already revoked');
    const unnamed = await runFolioCli(['api-key', 'add', '  '], { databaseUrl: a.databaseUrl });
    expect(unnamed.code).toBe(2);
    const nothing = await runFolioCli(['api-key', 'revoke', 'folio_zzzzzzzz'], {
      databaseUrl: a.databaseUrl,
    });
    expect(nothing.code).toBe(1);
  }, 60_000);
});

describe('the API keys screen', () => {
  const screen = () => fetch(`${a.url}/preview?api-keys`, { headers: { cookie: admin } });

  test('an Administrator makes a key (shown once), sees it listed, and revokes it', async () => {
    const page = await screen();
    expect(page.status).toBe(200);
    const form = await formWithButton(await page.text(), 'Make key');
    const made = await submitForm(`${a.url}/preview?api-keys`, form, {
      cookie: admin,
      button: 'Make key',
      set: { name: 'Partner site' },
    });
    expect(made.status).toBe(200);
    const html = await made.text();
    const key = /folio_[A-Za-z0-9_-]{43}/.exec(html)?.[0] ?? '';
    expect(key, 'the new key on the answer').not.toBe('');
    expect(html).toContain('shown only');
    // It works.
    const answer = await api(b, newAddress(), { headers: { authorization: `Bearer ${key}` } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('ratelimit-policy')).toStartWith('"key";');
    // Shown once: the list names it by its prefix only.
    const listed = await (await screen()).text();
    expect(listed).toContain('Partner site');
    expect(listed).toContain(key.slice(0, 14));
    expect(listed).not.toContain(key);

    const db = await a.database();
    const [row] = await db.query<{ id: number | string }>`
      SELECT id FROM api_keys WHERE name = 'Partner site'`;
    // The row's own button, as the browser posts it.
    const mine = (await formsIn(listed)).find((candidate) =>
      candidate.fields.some(([name, value]) => name === 'key' && value === String(row?.id)),
    );
    if (!mine) throw new Error('no Revoke form for the key');
    const response = await submitForm(`${a.url}/preview?api-keys`, mine, {
      cookie: admin,
      button: 'Revoke',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toContain('notice=key-revoked');
    const [after] = await db.query<{ revoked_at: string | null }>`
      SELECT revoked_at FROM api_keys WHERE id = ${row?.id}`;
    expect(after?.revoked_at).not.toBeNull();
    // The trail names who did each.
    const trail = await db.query<{ action: string; actor_email: string | null }>`
      SELECT action, actor_email FROM audit_entries
      WHERE action IN ('api-key.created', 'api-key.revoked') AND actor_email = 'admin@keys.example'
      ORDER BY id`;
    expect(trail.map((entry) => entry.action)).toEqual(['api-key.created', 'api-key.revoked']);
  });

  test('an Editor may not open it or make a key (403); another site may not post to it', async () => {
    const refused = await fetch(`${a.url}/preview?api-keys`, { headers: { cookie: editor } });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('You cannot manage API keys');
    const form = await formWithButton(await (await screen()).text(), 'Make key');
    const forged = await submitForm(`${a.url}/preview?api-keys`, form, {
      cookie: editor,
      button: 'Make key',
      set: { name: 'Made by an Editor' },
    });
    expect(forged.status).toBe(403);
    const crossSite = await submitForm(`${a.url}/preview?api-keys`, form, {
      cookie: admin,
      button: 'Make key',
      set: { name: 'Made from elsewhere' },
      headers: { origin: 'https://evil.example' },
    });
    expect(crossSite.status).toBe(403);
    const db = await a.database();
    const rows = await db.query`
      SELECT id FROM api_keys WHERE name IN ('Made by an Editor', 'Made from elsewhere')`;
    expect(rows).toEqual([]);
    // The dashboard links the screen for those who may open it only.
    expect(
      await (await fetch(`${a.url}/preview`, { headers: { cookie: admin } })).text(),
    ).toContain('href="/preview?api-keys"');
    expect(
      await (await fetch(`${a.url}/preview`, { headers: { cookie: editor } })).text(),
    ).not.toContain('href="/preview?api-keys"');
  });

  test('servers reported no unexpected error', () => {
    expect(a.unexpectedErrors()).toEqual([]);
    expect(b.unexpectedErrors()).toEqual([]);
  });
});
