// A shared cache in front (docs/decisions/0045): every public answer names what it depends on
// (Surrogate-Key, Cache-Tag), nothing private does; and after each committed change one purge
// naming its keys reaches the configured target — one, from two instances of one database; a
// failed one tried again with backoff, and after the last try logged once, never as a bug.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import sharp from 'sharp';
import { recordPurgeOfKeys } from '../../src/lib/data/cache-purges';
import { addEditor } from '../../src/lib/editors/accounts';
import { processImage } from '../../src/lib/media/images';
import { createMediaStore } from '../../src/lib/media/media';
import { createThrowAwayDatabase, TEST_ENGINE, type ThrowAwayDatabase } from '../databases';
import { formsIn, formWithButton, signInWithForm, submitForm } from '../forms';
import { type RunningFolio, startTwoFolios, waitFor, withStore } from '../harness';
import { publishThroughForms } from '../publishing';

const EDITOR = { email: 'purge@example.com', password: 'the purge passphrase' };
const TOKEN = 'a-purge-token-for-the-test';

type Received = { method: string; keys: string | null; authorization: string | null; at: number };
const received: Received[] = [];
const echoes: string[] = [];
/** The statuses the receiver answers next, in turn; 200 when none is left. */
let answers: number[] = [];
let receiver: Bun.TCPSocketListener<undefined>;
let database: ThrowAwayDatabase;
let a: RunningFolio;
let b: RunningFolio;
let cookie = '';

beforeAll(async () => {
  // On a bare socket: Bun.serve does not take a BAN (its parser knows the usual methods only).
  receiver = Bun.listen({
    hostname: '127.0.0.1',
    port: 0,
    socket: {
      data(socket, data) {
        const head = new TextDecoder().decode(data);
        const header = (name: string) =>
          new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1]?.trim() ?? null;
        // Each purge is sent once more 5 s later (purge-echo.test.ts): these tests count the
        // purges themselves, so echoes are answered and kept apart.
        if (header('x-purge-echo') === '1') {
          echoes.push(header('x-purge-keys') ?? '');
          socket.end('HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
          return;
        }
        received.push({
          method: head.slice(0, head.indexOf(' ')),
          keys: header('x-purge-keys'),
          authorization: header('authorization'),
          at: Date.now(),
        });
        const status = answers.shift() ?? 200;
        const body = status === 200 ? 'Banned' : 'Not today';
        socket.end(
          `HTTP/1.1 ${status} X\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
        );
      },
    },
  });
  database = await createThrowAwayDatabase();
  [a, b] = await startTwoFolios(database, {
    env: {
      PURGE_URL: `http://127.0.0.1:${receiver.port}/`,
      PURGE_TOKEN: TOKEN,
      // Content events (a page unpublished takes its social card away) every second.
      SCHEDULE_CHECK_SECONDS: '1',
    },
  });
  await addEditor(await a.database(), EDITOR.email, EDITOR.password);
  cookie = (await signInWithForm(a.url, EDITOR.email, EDITOR.password)).cookie;
  // From the test's own connection (no purge: its environment names no target).
  await withStore(a, async (store) => {
    for (const slug of ['keyed-a', 'keyed-b'])
      await store.putPage(
        { slug, title: slug, summary: '', body: `${slug} FIRST-TEXT` },
        { publish: true },
      );
  });
}, 90_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await database?.drop();
  receiver?.stop(true);
});

async function headersAt(pathname: string, init: RequestInit = {}) {
  const response = await fetch(`${a.url}${pathname}`, init);
  await response.arrayBuffer();
  return response.headers;
}

describe(`surrogate keys (${TEST_ENGINE})`, () => {
  test('every public answer names what it depends on, a cache hit too', async () => {
    for (const round of ['render', 'hit']) {
      const page = await headersAt('/keyed-a');
      if (round === 'hit') expect(page.get('x-folio-cache')).toBe('hit');
      expect(page.get('surrogate-key')).toBe('page-keyed-a site');
      expect(page.get('cache-tag')).toBe('page-keyed-a,site');
      expect((await headersAt('/RSC/R/keyed-a.txt')).get('surrogate-key')).toBe(
        'page-keyed-a site',
      );
      expect((await headersAt('/')).get('surrogate-key')).toBe('page-home site');
    }
    expect((await headersAt('/feed.xml')).get('surrogate-key')).toBe('feed site');
    expect((await headersAt('/sitemap.xml')).get('cache-tag')).toBe('sitemap,site');
    expect((await headersAt('/robots.txt')).get('surrogate-key')).toBe('site');
  });

  test('an image names its own key', async () => {
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: 'teal' } })
      .png()
      .toBuffer();
    const { hash } = await createMediaStore(await a.database()).add(
      await processImage(new Uint8Array(png)),
      { alt: 'a teal square', filename: 'teal.png', editor: EDITOR.email },
    );
    const headers = await headersAt(`/media/${hash}`);
    expect(headers.get('surrogate-key')).toBe(`media-${hash} site`);
    expect(headers.get('cache-tag')).toBe(`media-${hash},site`);
  });

  test('nothing private or refused names any: preview, health, a page that is not there', async () => {
    for (const [pathname, init] of [
      ['/preview/keyed-a', { headers: { cookie } }],
      ['/RSC/R/preview/keyed-a.txt', { headers: { cookie } }],
      ['/healthz', {}],
      ['/no-such-page', {}],
    ] as const) {
      const headers = await headersAt(pathname, init);
      expect(headers.has('surrogate-key'), pathname).toBe(false);
      expect(headers.has('cache-tag'), pathname).toBe(false);
      if (pathname.includes('preview'))
        expect(headers.get('cache-control'), pathname).toBe('private, no-store');
    }
  });
});

/** Waits until `count` purges arrived, then a while longer to see that no more do. */
async function purgesAfter(from: number, count: number): Promise<Received[]> {
  await waitFor(() => (received.length - from >= count ? true : undefined), {
    timeoutMs: 15_000,
    what: () => `${count} purges (${received.length - from} arrived)`,
  });
  await Bun.sleep(2_500);
  return received.slice(from);
}

describe(`purge on publish, two instances of one ${TEST_ENGINE} database`, () => {
  test('one purge per change, from one instance, naming the page and the listings', async () => {
    const from = received.length;
    await publishThroughForms(b.url, cookie, 'keyed-a', 'keyed-a SECOND-TEXT');
    const purges = await purgesAfter(from, 1);
    expect(purges).toHaveLength(1);
    const [purge] = purges;
    expect(purge?.method).toBe('BAN');
    expect(purge?.authorization).toBe(`Bearer ${TOKEN}`);
    expect(purge?.keys?.split(' ')).toContain('page-keyed-a');
    expect(purge?.keys?.split(' ')).toEqual(expect.arrayContaining(['feed', 'sitemap']));
    expect(purge?.keys?.split(' ')).not.toContain('page-keyed-b');
  }, 60_000);

  test('a refused purge is sent again, once more, and then no more', async () => {
    const from = received.length;
    answers = [500];
    await publishThroughForms(a.url, cookie, 'keyed-b', 'keyed-b SECOND-TEXT');
    const purges = await purgesAfter(from, 2);
    expect(purges.map((purge) => purge.keys)).toEqual([
      purges[0]?.keys ?? '',
      purges[0]?.keys ?? '',
    ]);
    expect(purges[0]?.keys?.split(' ')).toContain('page-keyed-b');
  }, 60_000);

  test('one that never takes is given up after four tries, said once at warn, not as a bug', async () => {
    const from = received.length;
    answers = [503, 503, 503, 503, 503];
    await publishThroughForms(a.url, cookie, 'keyed-a', 'keyed-a THIRD-TEXT');
    const purges = await purgesAfter(from, 4);
    expect(purges).toHaveLength(4);
    // The waits between tries grow (250 ms, 1 s, 4 s; polls and leases blur them a little).
    const gaps = purges.slice(1).map((purge, i) => purge.at - (purges[i]?.at ?? 0));
    expect(gaps[2] ?? 0).toBeGreaterThan(gaps[0] ?? 0);
    answers = [];
    const warned = [...a.logLines(), ...b.logLines()].filter((line) =>
      String(line.msg).startsWith('the shared cache was not told'),
    );
    expect(warned).toHaveLength(1);
    expect(warned[0]?.level).toBe('warn');
    expect(String(warned[0]?.reason)).toContain('503');
    expect([...a.unexpectedErrors(), ...b.unexpectedErrors()]).toEqual([]);
  }, 60_000);
});

// Fourth hostile pass: an image deleted from the library stayed a year in the cache in front
// (M1); any Author could flush the whole cache by saving their profile unchanged (M2).
describe(`purges that are not page changes (${TEST_ENGINE})`, () => {
  test('deleting an image sends one purge naming its key, and nothing else', async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: 'plum' } })
      .png()
      .toBuffer();
    const { hash } = await createMediaStore(await a.database()).add(
      await processImage(new Uint8Array(png)),
      { alt: 'a plum square', filename: 'plum.png', editor: EDITOR.email },
    );
    const library = await (await fetch(`${a.url}/preview?media`, { headers: { cookie } })).text();
    const form = (await formsIn(library)).find((candidate) =>
      candidate.fields.some(([name, value]) => name === 'hash' && value === hash),
    );
    if (!form) throw new Error('no form for the image in the library');
    const from = received.length;
    const deleted = await submitForm(`${a.url}/preview?media`, form, { cookie, button: 'Delete' });
    expect(deleted.headers.get('location')).toBe('/preview?media&notice=media-deleted');
    const purges = await purgesAfter(from, 1);
    expect(purges.map((purge) => purge.keys)).toEqual([`media-${hash}`]);
  }, 60_000);

  test('a social card replaced, then its page unpublished: each old card is purged', async () => {
    const cardOf = async () => {
      const html = await (await fetch(`${a.url}/carded`)).text();
      const [address, key] = /\/media\/([0-9a-f]{32})\/card-\d+\.png/.exec(html) ?? [];
      if (!address || !key) throw new Error('no social card on the page');
      expect((await fetch(`${a.url}${address}`)).status).toBe(200);
      return key;
    };
    const publish = (title: string) =>
      withStore(a, (store) =>
        store.putPage({ slug: 'carded', title, summary: '', body: 'Carded.' }, { publish: true }),
      );
    await publish('First card');
    const first = await cardOf();
    await publish('Second card');
    // The test's own writes purge nothing: what arrives is the drawing's, for the old card.
    let from = received.length;
    const second = await cardOf();
    expect(second).not.toBe(first);
    expect((await purgesAfter(from, 1)).map((purge) => purge.keys)).toEqual([`media-${first}`]);
    from = received.length;
    await withStore(a, (store) => store.unpublish('carded'));
    expect((await purgesAfter(from, 1)).map((purge) => purge.keys)).toEqual([`media-${second}`]);
  }, 60_000);

  test('purges pending together go as one request naming their union', async () => {
    const from = received.length;
    // Three changes committed at once by another process (the test's): the next poll claims
    // all three in one statement.
    const db = await a.database();
    await db.transaction(async (q) => {
      for (const key of ['page-one', 'page-two', 'page-three'])
        await recordPurgeOfKeys(q, [key], new Date());
    });
    const purges = await purgesAfter(from, 1);
    expect(purges).toHaveLength(1);
    expect(purges[0]?.keys?.split(' ').sort()).toEqual(['page-one', 'page-three', 'page-two']);
  }, 60_000);

  test('an unchanged profile saved five times sends no purge; a changed one sends one', async () => {
    const save = async (set: Record<string, string> = {}) => {
      const screen = await (
        await fetch(`${a.url}/preview?profile`, { headers: { cookie } })
      ).text();
      const form = await formWithButton(screen, 'Save profile');
      const saved = await submitForm(`${a.url}/preview?profile`, form, { cookie, set });
      expect(saved.status).toBe(303);
    };
    await save({ name: 'Pat Purge', slug: 'pat-purge', bio: 'First bio.', links: '' });
    // The profile now exists: every save after this one used to purge everything.
    const before = received.length;
    await Bun.sleep(1_500);
    const from = received.length;
    expect(from).toBe(before);
    for (let i = 0; i < 5; i += 1) await save();
    await Bun.sleep(2_500);
    expect(received.slice(from)).toEqual([]);

    await save({ bio: 'A second bio.' });
    const [bio, ...more] = await purgesAfter(from, 1);
    expect(more).toEqual([]);
    // Only the author's own page shows a bio: its key, not the whole site.
    expect(bio?.keys?.split(' ')).toContain('page-pat-purge');
    expect(bio?.keys?.split(' ')).not.toContain('site');

    const renamed = received.length;
    await save({ name: 'Pat Q. Purge' });
    expect((await purgesAfter(renamed, 1)).map((purge) => purge.keys)).toEqual(['site']);
    expect([...a.unexpectedErrors(), ...b.unexpectedErrors()]).toEqual([]);
  }, 90_000);
});
