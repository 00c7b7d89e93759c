// Editors' redirects (issue 27) against the server as the README starts it: what a visitor's
// browser is answered (full loads and the router's page data), the screen's forms without
// JavaScript, and the CLI's CSV round trip.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ContentStore } from '../../src/lib/content/content';
import { addEditor } from '../../src/lib/editors/accounts';
import { TEST_ENGINE } from '../databases';
import { formsIn, signInWithForm, submitForm } from '../forms';
import { type RunningFolio, runFolioCli, startFolio, withStore } from '../harness';

const EDITOR = { email: 'redirects@example.com', password: 'the redirects passphrase' };
const plain = (html: string) => html.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');

describe('redirects', () => {
  let folio: RunningFolio;
  let cookie = '';
  const get = (address: string, init: RequestInit = {}) =>
    fetch(`${folio.url}${address}`, { redirect: 'manual', ...init });
  const store = <T>(work: (store: ContentStore) => Promise<T>) => withStore(folio, work);

  beforeAll(async () => {
    folio = await startFolio();
    await addEditor(await folio.database(), EDITOR.email, EDITOR.password);
    cookie = (await signInWithForm(folio.url, EDITOR.email, EDITOR.password)).cookie;
    await store(async (s) => {
      await s.addRedirect({ from: '/2019/05/Old-Post/', to: '/about', status: 301 });
      await s.addRedirect({ from: '/old-about', to: '/about', status: 302 });
      await s.addRedirect({ from: '/elsewhere', to: 'https://example.com/new', status: 301 });
    });
  }, 60_000);
  afterAll(() => folio?.stop(), 30_000);

  test('a full load is sent on: any address, its query kept on this site, never cached', async () => {
    for (const method of ['GET', 'HEAD']) {
      const old = await get('/2019/05/old-post/?utm_source=mail', { method });
      expect(old.status).toBe(301);
      expect(old.headers.get('location')).toBe('/about?utm_source=mail');
      expect(old.headers.get('cache-control')).toBe('no-cache');
    }
    const temporary = await get('/old-about');
    expect(temporary.status).toBe(302);
    expect(temporary.headers.get('location')).toBe('/about');
    const away = await get('/elsewhere?x=1');
    expect(away.status).toBe(301);
    expect(away.headers.get('location')).toBe('https://example.com/new');
    // Folio's own addresses and unknown ones are untouched.
    expect((await get('/nothing-here')).status).toBe(404);
    expect((await get('/about')).status).toBe(200);
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test("the router's page data follows a redirect to a page, and offers one to another site", async () => {
    // The router's own answer, as a payload naming the page's address (as for a rename).
    const data = await get('/old-about?_rsc=x', { headers: { rsc: '1' } });
    expect(data.status).toBe(200);
    expect(data.headers.get('content-type')).toContain('text/x-component');
    expect(await data.text()).toContain('/about');
    const away = await get('/elsewhere?_rsc=x', { headers: { rsc: '1' } });
    expect(away.status).toBe(200);
    expect(await away.text()).toContain('https://example.com/new');
  });

  test('a page published at a redirected address wins', async () => {
    await store((s) => s.addRedirect({ from: '/soon-a-page', to: '/about', status: 301 }));
    expect((await get('/soon-a-page')).status).toBe(301);
    await store((s) =>
      s.putPage(
        { slug: 'soon-a-page', title: 'Soon', summary: '', body: 'Here now.' },
        { publish: true },
      ),
    );
    const page = await get('/soon-a-page');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Here now.');
  });

  test('the screen adds, refuses with the typed text kept, lists and removes, without JavaScript', async () => {
    const screen = async (address = '/preview?redirects') =>
      (await get(address, { headers: { cookie } })).text();
    const formOf = async (button: string) => {
      const forms = await formsIn(await screen());
      const form = forms.find((each) => each.buttons.some((b) => b.text.includes(button)));
      if (!form) throw new Error(`no form with ${button}`);
      return form;
    };
    const add = await formOf('Add redirect');
    const refused = await submitForm(`${folio.url}/preview?redirects`, add, {
      cookie,
      set: { from: '/about', to: '/contact', status: '301' },
    });
    expect(refused.status).toBe(422);
    const refusedHtml = await refused.text();
    expect(plain(refusedHtml)).toContain('A page is at /about');
    expect(refusedHtml).toMatch(/name="to"[^>]*value="\/contact"|value="\/contact"[^>]*name="to"/);
    const chain = await submitForm(`${folio.url}/preview?redirects`, add, {
      cookie,
      set: { from: '/chain', to: '/old-about', status: '301' },
    });
    expect(chain.status).toBe(422);
    expect(plain(await chain.text())).toContain('/old-about itself redirects to /about');
    const made = await submitForm(`${folio.url}/preview?redirects`, add, {
      cookie,
      set: { from: '/from-the-screen', to: '/contact', status: '302' },
    });
    expect(made.status).toBe(303);
    expect(made.headers.get('location')).toBe('/preview?redirects&notice=redirect-added');
    const listed = await screen('/preview?redirects&notice=redirect-added');
    expect(listed).toContain('Redirect added.');
    expect(listed).toMatch(
      /<code>\/from-the-screen<\/code><\/td><td><code>\/contact<\/code><\/td><td>Temporary/,
    );
    expect((await get('/from-the-screen')).headers.get('location')).toBe('/contact');
    // Searched: only what matches.
    const found = await screen('/preview?redirects&find=screen');
    expect(found).toContain('<code>/from-the-screen</code>');
    expect(found).not.toContain('<code>/old-about</code>');

    const remove = (await formsIn(await screen())).find((form) =>
      form.fields.some(([name, value]) => name === 'from' && value === '/from-the-screen'),
    );
    if (!remove) throw new Error('no Remove form');
    const removed = await submitForm(`${folio.url}/preview?redirects`, remove, { cookie });
    expect(removed.headers.get('location')).toBe('/preview?redirects&notice=redirect-removed');
    const again = await submitForm(`${folio.url}/preview?redirects`, remove, { cookie });
    expect(again.headers.get('location')).toBe('/preview?redirects&notice=redirect-gone');
    expect((await get('/from-the-screen')).status).toBe(404);
    // Signed out, the screen is the sign-in form, and the form does nothing.
    expect(await (await get('/preview?redirects')).text()).toContain('Sign in');
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('the CLI exports CSV that imports back; a bad file imports nothing and names its lines', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'folio-redirects-'));
    const exported = await runFolioCli(['redirect', 'export'], { databaseUrl: folio.databaseUrl });
    expect(exported.code).toBe(0);
    expect(exported.stdout).toStartWith('from,to,status\n');
    expect(exported.stdout).toContain('/2019/05/old-post,/about,301\n');
    const bad = path.join(dir, 'bad.csv');
    writeFileSync(bad, 'from,to,status\n/new-one,/about,301\n/evil,javascript:alert(1),301\n');
    const refused = await runFolioCli(['redirect', 'import', bad], {
      databaseUrl: folio.databaseUrl,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'bad.csv:3: Only http and https addresses can be redirected to.',
    );
    expect((await get('/new-one')).status).toBe(404);
    const good = path.join(dir, 'good.csv');
    writeFileSync(good, `${exported.stdout}/new-one,/about,302\n`);
    const imported = await runFolioCli(['redirect', 'import', good], {
      databaseUrl: folio.databaseUrl,
    });
    expect({ code: imported.code, stderr: imported.stderr }).toEqual({ code: 0, stderr: '' });
    expect(imported.stdout).toBe('imported 1 redirect\n');
    expect((await get('/new-one')).status).toBe(302);
  });
});

// Issue 27's leftovers: a redirect to a page that is only a draft sent visitors to a 404.
describe('a redirect to a page not published', () => {
  let folio: RunningFolio;
  let cookie = '';
  const store = <T>(work: (store: ContentStore) => Promise<T>) => withStore(folio, work);
  beforeAll(async () => {
    folio = await startFolio();
    await addEditor(await folio.database(), EDITOR.email, EDITOR.password);
    cookie = (await signInWithForm(folio.url, EDITOR.email, EDITOR.password)).cookie;
    await store(async (s) => {
      await s.putPage({ slug: 'only-a-draft', title: 'D', summary: '', body: 'd' });
      await s.putPage(
        { slug: 'later-gone', title: 'G', summary: '', body: 'g' },
        { publish: true },
      );
      await s.addRedirect({ from: '/to-later-gone', to: '/later-gone', status: 301 });
      await s.unpublish('later-gone');
    });
  }, 60_000);
  afterAll(() => folio?.stop(), 30_000);

  test('is refused in words on the screen, by the CLI and in a CSV import; one unpublished since is marked', async () => {
    const screen = await (
      await fetch(`${folio.url}/preview?redirects`, { headers: { cookie } })
    ).text();
    // Marked beside its target, in words.
    expect(plain(screen)).toContain(
      'Not published: /later-gone is not published yet: it is only a draft',
    );
    const add = (await formsIn(screen)).find((each) =>
      each.buttons.some((b) => b.text.includes('Add redirect')),
    );
    if (!add) throw new Error('no Add redirect form');
    const refused = await submitForm(`${folio.url}/preview?redirects`, add, {
      cookie,
      set: { from: '/to-draft', to: '/only-a-draft', status: '301' },
    });
    expect(refused.status).toBe(422);
    expect(plain(await refused.text())).toContain('/only-a-draft is not published yet:');

    const cli = await runFolioCli(['redirect', 'add', '/to-draft', '/only-a-draft'], {
      databaseUrl: folio.databaseUrl,
    });
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain('/only-a-draft is not published yet:');

    const dir = mkdtempSync(path.join(tmpdir(), 'folio-redirects-'));
    const file = path.join(dir, 'drafts.csv');
    writeFileSync(file, 'from,to,status\n/fine,/about,301\n/to-draft,/only-a-draft,301\n');
    const imported = await runFolioCli(['redirect', 'import', file], {
      databaseUrl: folio.databaseUrl,
    });
    expect(imported.code).toBe(1);
    expect(imported.stderr).toContain('drafts.csv:3: /only-a-draft is not published yet:');
    expect((await fetch(`${folio.url}/fine`, { redirect: 'manual' })).status).toBe(404);
    expect((await fetch(`${folio.url}/to-draft`, { redirect: 'manual' })).status).toBe(404);
    expect(folio.unexpectedErrors()).toEqual([]);
  });
});

// With EXTERNAL_REDIRECTS=refuse a redirect made earlier to another site is not followed.
describe.if(TEST_ENGINE === 'sqlite')('EXTERNAL_REDIRECTS=refuse', () => {
  let folio: RunningFolio;
  beforeAll(async () => {
    folio = await startFolio({ env: { EXTERNAL_REDIRECTS: 'refuse' } });
    await withStore(folio, (s) =>
      s.addRedirect({ from: '/away', to: 'https://example.com/', status: 301 }),
    );
  }, 60_000);
  afterAll(() => folio?.stop(), 30_000);

  test('another site’s address is no longer followed', async () => {
    expect((await fetch(`${folio.url}/away`, { redirect: 'manual' })).status).toBe(404);
  });
});
