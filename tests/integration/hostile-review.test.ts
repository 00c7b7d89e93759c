// The findings of the hostile pass over issue 11's work (a helper's black-box review), each
// kept as the repro it reported, against the server as the README starts it.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { connect } from 'node:net';
import type { ContentStore } from '../../src/lib/content/content';
import { addEditor } from '../../src/lib/editors/accounts';
import { TEST_ENGINE } from '../databases';
import { formWithButton, signInWithForm, submitForm } from '../forms';
import { type RunningFolio, startFolio, waitFor, withStore as withStoreOf } from '../harness';
import { rawFetch, rawRequest } from '../raw-http';

let folio: RunningFolio;
let actionModule = '';
let editorCookie = '';

beforeAll(async () => {
  folio = await startFolio();
  const html = await (await fetch(`${folio.url}/preview`)).text();
  actionModule = /([0-9a-f]{12})#signIn/.exec(html)?.[1] ?? '';
  await addEditor(await folio.database(), 'review@example.com', 'the review passphrase');
  editorCookie = (await signInWithForm(folio.url, 'review@example.com', 'the review passphrase'))
    .cookie;
}, 60_000);
afterAll(async () => {
  await folio?.stop();
});

const post = (path: string, body: BodyInit, headers: Record<string, string> = {}) =>
  fetch(`${folio.url}${path}`, {
    method: 'POST',
    body,
    redirect: 'manual',
    headers: { origin: folio.url, ...headers },
  });

const withStore = <T>(work: (store: ContentStore) => Promise<T>): Promise<T> =>
  withStoreOf(folio, work);

describe('forged action calls are bad requests, never bugs', () => {
  test('arguments that are not an argument list, or reference what was not sent (1)', async () => {
    for (const body of [
      '{}',
      'null',
      '1',
      '{"__proto__":{"x":1}}',
      '["$B1"]',
      '["$A1"]',
      '["$O1"]',
      '["$o1"]',
      '["$U1"]',
      '["$l1"]',
      '["$L1"]',
      '["$S1"]',
      '"$T"',
      '["$T"]',
    ]) {
      for (const action of ['signIn', 'saveDraft', 'publishPage', 'createShareLink']) {
        const response = await post(`/RSC/F/${actionModule}/${action}.txt`, body, {
          'content-type': 'text/plain',
        });
        expect(response.status, `${action} ${body}`).toBeGreaterThanOrEqual(400);
        expect(response.status, `${action} ${body}`).toBeLessThan(500);
      }
    }
  });

  test('action ids read differently by Folio and by Waku or React (2)', async () => {
    const cases: [string, BodyInit, Record<string, string>][] = [
      [`/RSC/F/${actionModule}/.txt`, '[]', { 'content-type': 'text/plain' }],
      [`/RSC/F/_${actionModule}/.txt`, '[]', { 'content-type': 'text/plain' }],
      [
        '/about',
        '[]',
        { 'content-type': 'text/plain', 'x-folio-action': `/RSC/F/${actionModule}/.txt` },
      ],
    ];
    const form = (fields: [string, string][]) => {
      const data = new FormData();
      for (const [name, value] of fields) data.append(name, value);
      return data;
    };
    for (const fields of [
      [
        [`$ACTION_ID_${actionModule}#signOut`, ''],
        [`$ACTION_ID_${actionModule}#constructor`, ''],
        ['x', 'y'],
      ],
      [
        [`$ACTION_ID_${actionModule}#signOut`, ''],
        [`$ACTION_ID_${actionModule}#toString`, ''],
      ],
      [
        ['$ACTION_REF_1', ''],
        ['$ACTION_1:0', '{"id":1}'],
      ],
      [
        ['$ACTION_REF_1', ''],
        ['$ACTION_1:0', '{"id":null}'],
      ],
      [
        ['$ACTION_REF_1', ''],
        ['$ACTION_1:0', '{"id":[]}'],
      ],
      [
        ['$ACTION_REF_1', ''],
        ['$ACTION_1:0', JSON.stringify({ id: `${actionModule}#signIn`, bound: '$T' })],
      ],
    ] as [string, string][][])
      cases.push(['/about', form(fields), { accept: 'text/html' }]);
    for (const [path, body, headers] of cases) {
      const response = await post(path, body, headers);
      expect(
        response.status,
        `${path} ${body instanceof FormData ? [...body.keys()].join(',') : body}`,
      ).toBeLessThan(500);
      expect(response.status).toBeGreaterThanOrEqual(400);
    }
  });

  test('x-folio-action cannot reach anything but an action (3)', async () => {
    for (const header of [
      '/RSC/F/../R/about.txt',
      '/RSC/F/%2e%2e/R/about.txt',
      '/RSC/F/./../R/_root.txt',
    ]) {
      for (const body of ['[]', '"$T"']) {
        const response = await post('/about', body, {
          'x-folio-action': header,
          'content-type': 'text/plain',
        });
        expect(response.status, header).toBe(400);
      }
    }
  });

  test('nothing above was reported as a bug', () => {
    expect(folio.unexpectedErrors().map((line) => JSON.stringify(line).slice(0, 200))).toEqual([]);
  });
});

describe('hosts', () => {
  test('foreign Host headers never switch the cache off for the real site (4)', async () => {
    for (const host of ['a.example', 'b.example', 'c.example', 'd.example', 'e.example'])
      await rawRequest(folio.url, ['GET /contact HTTP/1.1', `Host: ${host}`].join('\r\n'));
    await fetch(`${folio.url}/contact`);
    const real = await fetch(`${folio.url}/contact`, { headers: { 'accept-encoding': 'br' } });
    expect(real.headers.get('x-folio-cache')).toBe('hit');
    expect(real.headers.get('content-encoding')).toBe('br');
  });

  // Issue 14's hostile pass: `a..b` was taken as a host, and the feed named it.
  test('a Host with an empty label is a 400; a trailing dot is still a host', async () => {
    const empty = await rawRequest(
      folio.url,
      ['GET /feed.xml HTTP/1.1', 'Host: a..b'].join('\r\n'),
    );
    expect(empty.status).toBe(400);
    const leading = await rawRequest(folio.url, ['GET / HTTP/1.1', 'Host: .example'].join('\r\n'));
    expect(leading.status).toBe(400);
    const fqdn = await rawRequest(folio.url, ['GET / HTTP/1.1', 'Host: localhost.'].join('\r\n'));
    expect(fqdn.status).toBe(200);
  });

  test('an address refused before routing is a 404 no cache keeps', async () => {
    for (const path of ['/about%2f..%2f', '/media/0123/original.png%00']) {
      const response = await fetch(`${folio.url}${path}`);
      expect(response.status).toBe(404);
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });
});

describe('truncated requests', () => {
  test('a client that hangs up mid-upload is not a bug (5)', async () => {
    const before = folio.unexpectedErrors().length;
    for (const path of [
      '/about',
      '/preview',
      '/nonexistent-page',
      `/RSC/F/${actionModule}/signIn.txt`,
    ]) {
      await new Promise<void>((resolve) => {
        const socket = connect(folio.port, '127.0.0.1', () => {
          socket.write(
            `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${folio.port}\r\nOrigin: ${folio.url}\r\nContent-Type: multipart/form-data; boundary=X\r\nContent-Length: 5000\r\n\r\n--X\r\nContent-Disposition: form-data; name="a"\r\n\r\nabc`,
          );
          setTimeout(() => {
            socket.destroy();
            resolve();
          }, 300);
        });
        socket.on('error', () => resolve());
      });
    }
    // The server has noticed each hang-up by the time it answers the next request.
    expect((await fetch(`${folio.url}/healthz`)).status).toBe(200);
    await waitFor(async () => ((await fetch(`${folio.url}/healthz`)).ok ? true : undefined));
    expect(
      folio
        .unexpectedErrors()
        .slice(before)
        .map((line) => JSON.stringify(line).slice(0, 200)),
    ).toEqual([]);
  });
});

describe('editor commands', () => {
  test('a slug field that is not a slug is refused, never a redirect off-site or a 500 (6)', async () => {
    const page = await fetch(`${folio.url}/preview/about`, { headers: { cookie: editorCookie } });
    const publish = await formWithButton(await page.text(), 'Unpublish');
    for (const slug of [
      '..//evil.com',
      '%2e%2e/%2e%2e//evil.com',
      '..\\evil.com',
      'a\r\nb',
      '\u0001',
      '//evil.com',
    ]) {
      const response = await submitForm(`${folio.url}/preview/about`, publish, {
        cookie: editorCookie,
        set: { slug },
      });
      expect(response.status, JSON.stringify(slug)).toBe(400);
      expect(response.headers.get('location')).toBeNull();
    }
    expect(
      await withStore(async (store) => (await store.getPage('about', { draft: false }))?.slug),
    ).toBe('about');
  });

  test('without JavaScript, saving a page deleted meanwhile keeps the typed text (7)', async () => {
    await withStore((store) =>
      store.putPage({ slug: 'deleted-meanwhile', title: 'Soon gone', summary: '', body: 'x' }),
    );
    const editor = await fetch(`${folio.url}/preview/deleted-meanwhile?edit`, {
      headers: { cookie: editorCookie },
    });
    const form = await formWithButton(await editor.text(), 'Save draft');
    await withStore((store) => store.discardDraft('deleted-meanwhile'));
    const response = await submitForm(`${folio.url}/preview/deleted-meanwhile?edit`, form, {
      cookie: editorCookie,
      set: { body: 'TEXT-TYPED-BEFORE-THE-DELETE' },
    });
    // Refused as a conflict (409), answered with a new page's form holding the typed text.
    expect(response.status).toBe(409);
    const html = await response.text();
    const again = await formWithButton(html, 'Create draft');
    expect(again.fields.find(([name]) => name === 'body')?.[1]).toBe(
      'TEXT-TYPED-BEFORE-THE-DELETE',
    );
    expect(html).toContain('deleted meanwhile');
  });
});

describe('sign-in accounting', () => {
  test('a sign-in from a trusted device gives back no address attempt it never used (8)', async () => {
    await addEditor(await folio.database(), 'device@example.com', 'the device passphrase');
    const first = await signInWithForm(folio.url, 'device@example.com', 'the device passphrase');
    const device = first.cookie
      .split('; ')
      .filter((pair) => !pair.startsWith('folio_session='))
      .join('; ');
    const addressAttempts = async () => {
      const rows = await (await folio.database()).query<{ attempts: number }>`
        SELECT attempts FROM sign_in_attempts WHERE bucket LIKE 'address:%'`;
      return rows.reduce((sum, row) => sum + Number(row.attempts), 0);
    };
    await signInWithForm(folio.url, 'nobody@example.com', 'wrong');
    const before = await addressAttempts();
    for (let i = 0; i < 3; i++)
      await signInWithForm(folio.url, 'device@example.com', 'the device passphrase', {
        cookie: device,
      });
    expect(await addressAttempts()).toBe(before);
  });
});

describe('HEAD and addresses', () => {
  test('HEAD says how long the GET body is (9)', async () => {
    for (const path of [
      '/sitemap.xml',
      '/robots.txt',
      '/healthz',
      '/favicon.svg',
      '/no-such-page',
      '/preview',
    ]) {
      const get = await rawFetch(folio.url, 'GET', path);
      const head = await rawFetch(folio.url, 'HEAD', path);
      const length = get.header('content-length');
      if (length !== undefined) expect(head.header('content-length'), path).toBe(length);
      else expect(head.header('content-length'), path).toBeUndefined();
    }
  });

  test('/404 is a 404, index.html addresses redirect to the page (10)', async () => {
    expect((await fetch(`${folio.url}/404`)).status).toBe(404);
    const cases: [path: string, location: string][] = [
      ['/index.html', '/'],
      ['/about/index.html', '/about'],
    ];
    for (const [path, location] of cases) {
      const response = await fetch(`${folio.url}${path}`, { redirect: 'manual' });
      expect(response.status, path).toBe(308);
      expect(response.headers.get('location'), path).toBe(location);
    }
  });

  test('page data for a page that does not exist is not kept by CDNs (10)', async () => {
    for (const path of ['/RSC/R/upcoming-feature.txt', '/RSC/R/junk-1.txt']) {
      const response = await fetch(`${folio.url}${path}`);
      expect(response.headers.get('cdn-cache-control'), path).toBeNull();
      expect(response.headers.get('cache-control') ?? '', path).not.toContain('public');
    }
  });
});

// --- The second hostile pass --------------------------------------------------------------------

describe('second pass: notices', () => {
  test('a ?notice= naming an Object.prototype member is no notice, never a 500 (11)', async () => {
    for (const notice of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])
      for (const path of [
        `/preview/about?notice=${notice}`,
        `/preview?notice=${notice}`,
        `/RSC/R/preview/about.txt?notice=${notice}`,
      ]) {
        const response = await fetch(`${folio.url}${path}`, { headers: { cookie: editorCookie } });
        expect(response.status, path).toBe(200);
        expect(await response.text(), path).not.toContain('[native code]');
      }
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('"saved" says what visitors see, which depends on the page (11)', async () => {
    await withStore((store) =>
      store.putPage(
        { slug: 'never-published', title: 'Never published', summary: '', body: 'x' },
        { publish: false },
      ),
    );
    const draftOnly = await fetch(`${folio.url}/preview/never-published?notice=saved`, {
      headers: { cookie: editorCookie },
    });
    const html = await draftOnly.text();
    expect(html).toContain('Draft saved. Visitors see nothing until you publish it.');
    expect(html).not.toContain('Visitors still see the published version');
  });
});

describe.if(TEST_ENGINE === 'sqlite')(
  'second pass: a database another process holds locked',
  () => {
    // Another process (a bulk import, a second server) holds SQLite's write lock past the server's
    // busy timeout: every write is refused with words, nothing is lost, nothing reported.
    test('sign-in, sign-out, share links and saves say "busy", never 500 (12)', async () => {
      const page = await (
        await fetch(`${folio.url}/preview/about?edit`, { headers: { cookie: editorCookie } })
      ).text();
      const save = await formWithButton(page, 'Save draft');
      const share = await formWithButton(page, 'Create share link');
      const signOut = await formWithButton(page, 'Sign out');
      const signInPage = await (await fetch(`${folio.url}/preview`)).text();
      const signIn = await formWithButton(signInPage, 'Sign in');

      // The test's own connection, another process: it holds SQLite's write lock.
      const lock = await folio.database();
      await lock.client.unsafe('BEGIN IMMEDIATE');
      try {
        const saved = await submitForm(`${folio.url}/preview/about?edit`, save, {
          cookie: editorCookie,
          set: { body: 'TEXT-TYPED-WHILE-BUSY' },
        });
        // The form again, its text kept, as the 503 every busy answer is (issue 24: was 200).
        expect(saved.status).toBe(503);
        expect(saved.headers.get('retry-after')).toBe('2');
        const savedHtml = await saved.text();
        expect(savedHtml).toContain('Folio is busy');
        expect(savedHtml).toContain('TEXT-TYPED-WHILE-BUSY');

        // Posted where the form was (no action address: a form posts to its own page).
        const shared = await submitForm(`${folio.url}/preview/about?edit`, share, {
          cookie: editorCookie,
        });
        expect(shared.status).toBe(503);
        expect(await shared.text()).toContain(
          'No link was made: Folio is busy. Try again in a moment.',
        );

        const signedIn = await submitForm(`${folio.url}/preview`, signIn, {
          set: { email: 'review@example.com', password: 'the review passphrase' },
        });
        // The sign-in form again, saying why: a 503 (nothing was checked), not a wrong password.
        expect(signedIn.status).toBe(503);
        expect(await signedIn.text()).toContain('Folio is busy. Nothing was checked');

        const signedOut = await submitForm(`${folio.url}/preview/about`, signOut, {
          cookie: editorCookie,
        });
        expect(signedOut.status).toBe(503);
        expect(signedOut.headers.get('retry-after')).toBe('2');
        expect(await signedOut.text()).toContain('Folio is busy. Nothing was changed');
      } finally {
        await lock.client.unsafe('ROLLBACK');
      }
      // Still signed in (the sign-out did not happen), and the site answers at once again.
      const after = await fetch(`${folio.url}/preview/about`, {
        headers: { cookie: editorCookie },
      });
      expect(after.status).toBe(200);
      expect(folio.unexpectedErrors()).toEqual([]);
      expect(
        folio.logLines().some((line) => line.msg === 'request refused' && line.status === 503),
      ).toBe(true);
    }, 30_000);
  },
);

describe.if(TEST_ENGINE === 'sqlite')('second pass: restore under a running server', () => {
  test('is refused, naming the server, and the database is left as it was (13)', async () => {
    const root = new URL('../..', import.meta.url).pathname;
    const file = folio.databaseFile ?? '';
    const backup = `${file}.backup`;
    const env = { ...process.env, DATABASE_URL: folio.databaseUrl };
    const backedUp = Bun.spawnSync(['bun', 'run', 'folio', 'db', 'backup', backup], {
      cwd: root,
      env,
    });
    expect(backedUp.exitCode).toBe(0);
    const restore = Bun.spawnSync(['bun', 'run', 'folio', 'db', 'restore', backup], {
      cwd: root,
      env,
    });
    expect(restore.exitCode).toBe(1);
    expect(restore.stderr.toString()).toContain(`Folio is serving ${file} (pid ${folio.pid})`);
    // The server still saves into the file everyone reads.
    expect((await fetch(`${folio.url}/healthz`)).status).toBe(200);
  });
});

describe('second pass: device cookies', () => {
  test('a device cookie from before a password reset is trusted no more (14)', async () => {
    await addEditor(await folio.database(), 'reset@example.com', 'the old passphrase');
    const first = await signInWithForm(folio.url, 'reset@example.com', 'the old passphrase');
    const device = first.cookie
      .split('; ')
      .filter((pair) => pair.startsWith('folio_device='))
      .join('; ');
    expect(device).not.toBe('');
    await addEditor(await folio.database(), 'reset@example.com', 'the new passphrase');
    await signInWithForm(folio.url, 'reset@example.com', 'a wrong guess', { cookie: device });
    const [account] = await (await folio.database()).query<{ attempts: number }>`
      SELECT attempts FROM sign_in_attempts WHERE bucket = 'account:reset@example.com'`;
    // Counted against the account, as from any unknown device.
    expect(Number(account?.attempts)).toBe(1);
  });
});

describe('second pass: a stale form whose address another page took', () => {
  test('without JavaScript, the answer shows the page the form was for, with the typed text (15)', async () => {
    const original = await withStore(async (store) => {
      await store.putPage(
        { slug: 'taken-over', title: 'The original page', summary: '', body: 'first' },
        { publish: false },
      );
      return store.getPage('taken-over', { draft: true });
    });
    if (!original) throw new Error('no page');
    const editor = await fetch(`${folio.url}/preview/taken-over?edit`, {
      headers: { cookie: editorCookie },
    });
    const form = await formWithButton(await editor.text(), 'Save draft');
    await withStore(async (store) => {
      await store.saveDraft({
        slug: 'moved-elsewhere',
        pageId: original.id,
        title: original.title,
        summary: '',
        body: 'first',
        expectedVersion: original.version,
        editor: 'someone@example.com',
      });
      await store.putPage(
        { slug: 'taken-over', title: 'The newcomer page', summary: '', body: 'second' },
        { publish: false },
      );
    });
    const response = await submitForm(`${folio.url}/preview/taken-over?edit`, form, {
      cookie: editorCookie,
      set: { body: 'TEXT-FOR-THE-ORIGINAL' },
    });
    expect(response.status).toBe(409);
    const html = await response.text();
    const again = await formWithButton(html, 'Save draft');
    expect(again.fields.find(([name]) => name === 'body')?.[1]).toBe('TEXT-FOR-THE-ORIGINAL');
    expect(html).toContain('renamed to “moved-elsewhere”');
    expect(html).toContain('<title>The original page · Folio preview</title>');
    const banner = /<section class="preview-banner"[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
    expect(banner).toContain('value="moved-elsewhere"');
    expect(banner).not.toContain('taken-over');
  });
});

describe('second pass: addresses', () => {
  test('page data has one address per page; other spellings redirect, typed and uncached (16)', async () => {
    const cases: [string, string][] = [
      ['/RSC/R/About.txt', '/RSC/R/about.txt'],
      ['/RSC/R/about/.txt', '/RSC/R/about.txt'],
      ['/RSC/R/about_.txt', '/RSC/R/about.txt'],
      ['/RSC/R/_root_.txt', '/RSC/R/_root.txt'],
      ['/RSC/R/home.txt', '/RSC/R/_root.txt'],
      ['/healthz/', '/healthz'],
      ['/robots.txt/', '/robots.txt'],
    ];
    for (const [path, location] of cases) {
      const response = await fetch(`${folio.url}${path}`, { redirect: 'manual' });
      expect(response.status, path).toBe(308);
      expect(response.headers.get('location'), path).toBe(location);
    }
    for (const path of ['/RSC/R/nope.txt', '/RSC/R/a/b.txt', '/RSC/R/index.txt']) {
      const response = await fetch(`${folio.url}${path}`);
      expect(response.headers.get('content-type'), path).toBe('text/x-component; charset=utf-8');
      expect(response.headers.get('cache-control'), path).toBe('no-store');
    }
  });
});

describe('third pass (issue 13): methods and HEAD', () => {
  test('HEAD on pages and page data with a session cookie, real or forged, logs no error (17)', async () => {
    const before = folio.unexpectedErrors().length;
    const printed = folio.output().length;
    for (const cookie of ['folio_session=x', editorCookie])
      for (const path of [
        '/RSC/R/about.txt',
        '/RSC/R/preview/about.txt',
        '/about',
        '/preview/about',
      ]) {
        const response = await fetch(`${folio.url}${path}`, {
          method: 'HEAD',
          headers: { cookie },
        });
        expect(response.status, `${path} with ${cookie.slice(0, 20)}`).toBeLessThan(500);
      }
    // The log is written as the render ends: give it a moment to say anything it would.
    await Bun.sleep(200);
    expect(folio.unexpectedErrors().slice(before)).toEqual([]);
    // Nor Waku's own print of an aborted render, a stack trace anyone could write to the log.
    expect(folio.output().slice(printed)).not.toContain('Error during rendering');
  });

  test('PUT and DELETE at a non-canonical address are 405 like at the canonical one (18)', async () => {
    for (const path of [
      '/getting-started/',
      '/preview//getting-started',
      '/preview/getting-started/',
    ]) {
      for (const method of ['PUT', 'DELETE']) {
        const response = await fetch(`${folio.url}${path}`, {
          method,
          headers: { cookie: editorCookie },
          redirect: 'manual',
        });
        expect(response.status, `${method} ${path}`).toBe(405);
        expect(await response.text(), `${method} ${path}`).not.toContain('<article');
      }
    }
  });
});
