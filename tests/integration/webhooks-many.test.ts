// Many webhooks, as the hostile pass made them (decision 0046, "Hostile pass, 2026-11-27"), on a
// server started as the README starts it: a site has at most 100 (the screen's form, a stale
// tab's post and the CLI refuse one more in words); with most of them dead (a port nothing
// listens on) or hanging (a receiver that never answers), the one healthy receiver still gets
// its event before a single hanging one has timed out; and rows put in the database around the
// cap leave the screen at 100 rows, saying how many there are.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { addEditor, createSession } from '../../src/lib/editors/accounts';
import { SESSION_COOKIE } from '../../src/lib/http/routes';
import { SEND_TIMEOUT_MS } from '../../src/lib/webhooks/send';
import { addEndpoint, MAX_ENDPOINTS } from '../../src/lib/webhooks/store';
import { TEST_ENGINE } from '../databases';
import { formWithButton, submitForm } from '../forms';
import { type RunningFolio, runFolioCli, startFolio, waitFor, withStore } from '../harness';

const SCREEN = '/preview?webhooks';
/** Every this-many endpoint hangs; the others are dead. 12 of 99: fewer than the places. */
const HANG_EVERY = 8;

let folio: RunningFolio;
let admin = '';
let receiver: ReturnType<typeof Bun.serve>;
const received: { path: string; at: number }[] = [];

beforeAll(async () => {
  receiver = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    // Longer than the deliverer's wait: the hanging ones are cut by the deliverer, not by this.
    idleTimeout: 60,
    fetch(request) {
      const path = new URL(request.url).pathname;
      received.push({ path, at: Date.now() });
      if (path.startsWith('/hang')) return new Promise<Response>(() => undefined);
      return new Response('thanks');
    },
  });
  folio = await startFolio({
    env: { WEBHOOKS_ALLOW_PRIVATE: '1', SCHEDULE_CHECK_SECONDS: '0.3' },
  });
  const db = await folio.database();
  const owner = await addEditor(db, 'owner@many-hooks.example', 'the many hooks passphrase');
  admin = `${SESSION_COOKIE}=${(await createSession(db.query, owner.id)).id}`;
}, 90_000);

afterAll(async () => {
  await folio?.stop();
  receiver?.stop(true);
});

const open = (path: string) =>
  fetch(`${folio.url}${path}`, { headers: { cookie: admin, accept: 'text/html' } });

/** The page's words, without React's markers between a text and a value beside it. */
const words = (html: string) => html.replaceAll('<!-- -->', '');

async function register(url: string) {
  return addEndpoint((await folio.database()).query, {
    url,
    events: ['page.published'],
    by: 'test',
    at: new Date(),
    allowPrivate: true,
  });
}

describe(`many webhooks on ${TEST_ENGINE}`, () => {
  let staleForm: Awaited<ReturnType<typeof formWithButton>>;

  test(`a site has at most ${MAX_ENDPOINTS}: the screen, a stale tab's post and the CLI say so`, async () => {
    for (let index = 0; index < MAX_ENDPOINTS - 1; index += 1)
      await register(
        index % HANG_EVERY === 3
          ? `http://127.0.0.1:${receiver.port}/hang-${index}`
          : `http://127.0.0.1:1/dead-${index}`,
      );
    // A tab opened at 99, posted at 100.
    staleForm = await formWithButton(await (await open(SCREEN)).text(), 'Add webhook');
    await register(`http://127.0.0.1:${receiver.port}/ok`);

    const screen = words(await (await open(SCREEN)).text());
    // Asked as booleans: a failure would otherwise print the whole page.
    expect(screen.includes(`a site may have ${MAX_ENDPOINTS}: remove one to add another`)).toBe(
      true,
    );
    expect(screen.includes('Add webhook')).toBe(false);
    const refused = await submitForm(`${folio.url}${SCREEN}`, staleForm, {
      cookie: admin,
      set: { url: 'https://one-more.example/hook', events: 'page.published' },
      button: 'Add webhook',
    });
    expect(refused.status).toBe(422);
    // Posted without JavaScript: the page again, which at the cap says so in place of the form.
    const answer = words(await refused.text());
    expect(answer.includes(`a site may have ${MAX_ENDPOINTS}: remove one to add another`)).toBe(
      true,
    );
    const cli = await runFolioCli(
      ['webhook', 'add', 'https://one-more.example/hook', '--events', 'page.published'],
      { databaseUrl: folio.databaseUrl },
    );
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain(`There are already ${MAX_ENDPOINTS} webhooks`);
    const db = await folio.database();
    const [count] = await db.query<{ n: number | string }>`
      SELECT COUNT(*) AS n FROM webhook_endpoints`;
    expect(Number(count?.n)).toBe(MAX_ENDPOINTS);
    expect(folio.unexpectedErrors()).toEqual([]);
  }, 60_000);

  test('dead and hanging receivers do not hold up the healthy one', async () => {
    const publishedAt = Date.now();
    await withStore(folio, (store) =>
      store.putPage(
        { slug: 'crowded', title: 'Crowded', summary: '', body: 'x' },
        { publish: true },
      ),
    );
    const ok = await waitFor(() => received.find((request) => request.path === '/ok'), {
      timeoutMs: 60_000,
      what: () => `the healthy receiver's event; ${received.length} requests seen`,
    });
    // Before any hanging receiver's wait could have ended: it was not queued behind them.
    // (Sent ten at a time, a batch waited for its slowest: the hostile pass saw 19 s.)
    expect(ok.at - publishedAt).toBeLessThan(SEND_TIMEOUT_MS);
    const hanging = Array.from({ length: MAX_ENDPOINTS - 1 }, (_, index) => index).filter(
      (index) => index % HANG_EVERY === 3,
    ).length;
    expect(received.filter((request) => request.path.startsWith('/hang'))).toHaveLength(hanging);
    // The dead ones failed at once (a refused connection), each its first attempt recorded.
    const db = await folio.database();
    const dead = MAX_ENDPOINTS - 1 - hanging;
    await waitFor(
      async () => {
        const [row] = await db.query<{ n: number | string }>`
          SELECT COUNT(*) AS n FROM webhook_deliveries WHERE last_error LIKE 'cannot reach it%'`;
        return Number(row?.n) >= dead ? true : undefined;
      },
      { timeoutMs: 30_000, what: `${dead} dead receivers' failed attempts in the log` },
    );
    expect(folio.unexpectedErrors()).toEqual([]);
  }, 90_000);

  test('rows put in the database around the cap: the screen and the CLI list 100, and say so', async () => {
    const db = await folio.database();
    await db.query`
      INSERT INTO webhook_endpoints (url, events, secret, created_at)
      SELECT 'https://around-the-cap.example/' || CAST(n.i AS TEXT), 'settings.changed',
             'whsec_x', '2026-11-27T00:00:00.000Z'
      FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400)
            SELECT i FROM n) n`;
    const answer = await open(SCREEN);
    expect(answer.status).toBe(200);
    const html = words(await answer.text());
    expect(html.match(/>Delivery log</g)).toHaveLength(MAX_ENDPOINTS);
    expect(html.includes(`the first ${MAX_ENDPOINTS} of ${MAX_ENDPOINTS + 400}`)).toBe(true);
    expect(html.includes('around-the-cap.example')).toBe(false);
    // A hundred rows of buttons: well under a megabyte (10 000 rows made 31 MB).
    expect(html.length).toBeLessThan(1_000_000);
    const cli = await runFolioCli(['webhook', 'list'], { databaseUrl: folio.databaseUrl });
    expect(cli.code).toBe(0);
    expect(cli.stdout.trim().split('\n')).toHaveLength(MAX_ENDPOINTS + 1);
    expect(cli.stdout).toContain(`(the first ${MAX_ENDPOINTS} of ${MAX_ENDPOINTS + 400})`);
    expect(folio.unexpectedErrors()).toEqual([]);
  }, 60_000);
});
