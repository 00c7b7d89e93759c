// A publish re-renders what it changed (issue 25, docs/decisions/0028): on two instances of one
// database (PostgreSQL: two servers; SQLite: two processes on one file), a page published on B
// is new on both by their next request, while every other cached page stays a cache hit; a
// change every page shows (the site's title) re-renders every page.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { addEditor } from '../../src/lib/editors/accounts';
import { createThrowAwayDatabase, TEST_ENGINE, type ThrowAwayDatabase } from '../databases';
import { formWithButton, signInWithForm, submitForm } from '../forms';
import { type RunningFolio, startTwoFolios, waitFor, withStore } from '../harness';

const EDITOR = { email: 'gate@example.com', password: 'the gate passphrase' };
let database: ThrowAwayDatabase;
let a: RunningFolio;
let b: RunningFolio;
let cookie = '';

beforeAll(async () => {
  database = await createThrowAwayDatabase();
  [a, b] = await startTwoFolios(database);
  await addEditor(await a.database(), EDITOR.email, EDITOR.password);
  cookie = (await signInWithForm(a.url, EDITOR.email, EDITOR.password)).cookie;
  await withStore(a, async (store) => {
    for (const slug of ['gate-a', 'gate-b'])
      await store.putPage(
        { slug, title: slug, summary: '', body: `${slug} FIRST-TEXT` },
        { publish: true },
      );
  });
}, 90_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await database?.drop();
});

const ADDRESSES = ['/gate-a', '/RSC/R/gate-a.txt', '/gate-b', '/RSC/R/gate-b.txt', '/'];

/** Requests each address until it is a cache hit (a write by the test's own connection may
 * reach an instance a moment after the request before). */
async function primed(instance: RunningFolio) {
  for (const pathname of ADDRESSES)
    await waitFor(
      async () => {
        const response = await fetch(`${instance.url}${pathname}`);
        await response.arrayBuffer();
        return response.headers.get('x-folio-cache') === 'hit' ? true : undefined;
      },
      { what: `${pathname} cached on ${instance.url}` },
    );
}

async function fetched(instance: RunningFolio, pathname: string) {
  const response = await fetch(`${instance.url}${pathname}`);
  return { cache: response.headers.get('x-folio-cache'), text: await response.text() };
}

/** The content version an instance serves (healthz says it). */
async function servedVersion(instance: RunningFolio): Promise<number> {
  const response = await fetch(`${instance.url}/healthz`);
  await response.arrayBuffer();
  return Number(response.headers.get('x-folio-content-version') ?? -1);
}

describe(`a publish on two instances of one ${TEST_ENGINE} database`, () => {
  test('re-renders the page it changed on both, and leaves every other cached page a hit', async () => {
    await Promise.all([primed(a), primed(b)]);
    // The editor publishes gate-a through B's own forms, as a browser without JavaScript would.
    const editorPage = await (
      await fetch(`${b.url}/preview/gate-a?edit`, { headers: { cookie } })
    ).text();
    const saved = await submitForm(
      `${b.url}/preview/gate-a?edit`,
      await formWithButton(editorPage, 'Save draft'),
      { cookie, set: { body: 'gate-a SECOND-TEXT' } },
    );
    expect(saved.status).toBe(303);
    const preview = await (await fetch(`${b.url}/preview/gate-a`, { headers: { cookie } })).text();
    const published = await submitForm(
      `${b.url}/preview/gate-a`,
      await formWithButton(preview, 'Publish this draft'),
      { cookie },
    );
    expect(published.headers.get('location')).toBe('/preview/gate-a?notice=published');
    // B answered once its own listener heard the NOTIFY; A's hears it at about the same time,
    // but nothing orders it before B's answer (see postgres-faults): wait for A to serve it.
    // SQLite: the shared file has it at once.
    const version = await servedVersion(b);
    await waitFor(async () => ((await servedVersion(a)) >= version ? true : undefined), {
      what: 'A to serve the version B published',
    });
    for (const instance of [a, b]) {
      for (const pathname of ['/gate-a', '/RSC/R/gate-a.txt']) {
        const page = await fetched(instance, pathname);
        expect(page.cache, `${pathname} on ${instance.url}`).toBe('miss');
        expect(page.text).toContain('SECOND-TEXT');
        expect(page.text).not.toContain('FIRST-TEXT');
      }
      // Untouched by the publish: still the entry made before it.
      for (const pathname of ['/gate-b', '/RSC/R/gate-b.txt', '/']) {
        const page = await fetched(instance, pathname);
        expect(page.cache, `${pathname} on ${instance.url}`).toBe('hit');
      }
      expect((await fetched(instance, '/gate-b')).text).toContain('gate-b FIRST-TEXT');
    }
  });

  test('a change of the site title re-renders every page on both, its tab title and share card too', async () => {
    await Promise.all([primed(a), primed(b)]);
    const title = 'A-NEW-SITE-TITLE';
    await withStore(a, async (store) =>
      store.saveSiteSettings({ ...(await store.getSiteSettings()), title }),
    );
    const version = await servedVersion(a);
    await waitFor(async () => ((await servedVersion(b)) >= version ? true : undefined), {
      what: 'B to serve the new version',
    });
    for (const instance of [a, b])
      for (const pathname of ADDRESSES) {
        const page = await fetched(instance, pathname);
        expect(page.cache, `${pathname} on ${instance.url}`).toBe('miss');
        expect(page.text).toContain(title);
        // The browser's tab and a share card name the site by its title, not "Folio" (issue 27).
        if (pathname.startsWith('/RSC/')) continue;
        expect(page.text).toMatch(new RegExp(`<title>[^<]* · ${title}</title>`));
        expect(page.text).toContain(`<meta property="og:site_name" content="${title}"/>`);
      }
    const missing = await fetch(`${a.url}/no-such-page-here`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain(`<title>Page not found · ${title}</title>`);
  });
});
