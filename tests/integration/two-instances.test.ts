// Two instances on one database, as a load balancer would spread an editor and visitors over
// them: any instance answers any request. On PostgreSQL these are the scale-out setup; on a
// SQLite file, two processes on one machine (the shared content-version sidecar).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import path from 'node:path';
import { addEditor } from '../../src/lib/editors/accounts';
import { createThrowAwayDatabase, TEST_ENGINE, type ThrowAwayDatabase } from '../databases';
import { formWithButton, signInWithForm, submitForm } from '../forms';
import { type RunningFolio, startTwoFolios, waitFor, withStore } from '../harness';

const EDITOR = { email: 'pair@example.com', password: 'the pair passphrase' };
let database: ThrowAwayDatabase;
let a: RunningFolio;
let b: RunningFolio;
let cookie = '';

beforeAll(async () => {
  database = await createThrowAwayDatabase();
  [a, b] = await startTwoFolios(database);
  await addEditor(await a.database(), EDITOR.email, EDITOR.password);
  cookie = (await signInWithForm(a.url, EDITOR.email, EDITOR.password)).cookie;
}, 90_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await database?.drop();
});

const text = async (
  instance: RunningFolio,
  pathname: string,
  headers: Record<string, string> = {},
) => (await fetch(`${instance.url}${pathname}`, { headers })).text();

describe(`two instances on one ${TEST_ENGINE} database`, () => {
  test('started together, they migrated and seeded it once', async () => {
    const [seeded] = await (await a.database()).query<{ n: number | string }>`
      SELECT COUNT(*) AS n FROM pages WHERE slug = 'about'`;
    expect(Number(seeded?.n)).toBe(1);
    for (const instance of [a, b]) expect(instance.unexpectedErrors()).toEqual([]);
  });

  test('an editor signed in on A is signed in on B', async () => {
    const onB = await fetch(`${b.url}/preview/about`, { headers: { cookie } });
    expect(onB.status).toBe(200);
    expect(await onB.text()).toContain(EDITOR.email);
  });

  test("a publish on B is on A's next request, HTML and page data, though A had it cached", async () => {
    await withStore(a, (store) =>
      store.putPage(
        { slug: 'shared-page', title: 'Shared', summary: '', body: 'FIRST-VERSION' },
        { publish: true },
      ),
    );
    // The write came from this test's own connection, so A hears of it by NOTIFY a moment
    // later, and a page cached before that is (rightly) dropped then: prime A until it hits.
    for (const pathname of ['/shared-page', '/RSC/R/shared-page.txt']) {
      const cached = await waitFor(
        async () => {
          await text(a, pathname);
          const again = await fetch(`${a.url}${pathname}`);
          return again.headers.get('x-folio-cache') === 'hit' ? again : undefined;
        },
        { what: `${pathname} cached on A` },
      );
      expect(await cached.text(), pathname).toContain('FIRST-VERSION');
    }
    // The editor publishes through B's own form, as a browser without JavaScript would.
    const editorPage = await text(b, '/preview/shared-page?edit', { cookie });
    const saved = await submitForm(
      `${b.url}/preview/shared-page?edit`,
      await formWithButton(editorPage, 'Save draft'),
      { cookie, set: { body: 'SECOND-VERSION' } },
    );
    expect(saved.status).toBe(303);
    const preview = await text(b, '/preview/shared-page', { cookie });
    const published = await submitForm(
      `${b.url}/preview/shared-page`,
      await formWithButton(preview, 'Publish this draft'),
      { cookie },
    );
    expect(published.headers.get('location')).toBe('/preview/shared-page?notice=published');
    // B answers once its own listener heard the NOTIFY, which PostgreSQL sends every listener
    // at once: A has it by its next request on a quiet machine. With both cores burning
    // (a busy CI run, 2026-11-27) A's event loop once read its next request before the
    // notification waiting on its socket; nothing stronger holds without a database read on
    // every cache hit. So: A shows the new text within a moment, and never the old after.
    let requests = 0;
    const html = await waitFor(
      async () => {
        requests += 1;
        const page = await text(a, '/shared-page');
        return page.includes('SECOND-VERSION') ? page : undefined;
      },
      { timeoutMs: 3_000, what: 'the publish on A' },
    );
    if (requests > 1) console.log(`two instances: A showed the publish at request ${requests}`);
    expect(html).not.toContain('FIRST-VERSION');
    expect(await text(a, '/RSC/R/shared-page.txt')).toContain('SECOND-VERSION');
    expect(await text(a, '/shared-page')).toContain('SECOND-VERSION');
  });

  test('the sign-in throttle counts attempts on both', async () => {
    const email = 'counted@example.com';
    await addEditor(await a.database(), email, 'the counted passphrase');
    const outcomes: string[] = [];
    for (let i = 0; i < 6; i++) {
      const instance = i % 2 === 0 ? a : b;
      const { html } = await signInWithForm(instance.url, email, `wrong guess ${i}`);
      outcomes.push(html.includes('Too many attempts') ? 'throttled' : 'checked');
    }
    // Five wrong guesses are checked, spread over two instances; the sixth is refused.
    expect(outcomes).toEqual(['checked', 'checked', 'checked', 'checked', 'checked', 'throttled']);
  });

  test('a share link made on A opens the draft on B', async () => {
    const page = await text(a, '/preview/upcoming-feature', { cookie });
    const made = await submitForm(
      `${a.url}/preview/upcoming-feature`,
      await formWithButton(page, 'Create share link'),
      { cookie },
    );
    const link = /value="(http[^"]*\?share=[^"]+)"/
      .exec(await made.text())?.[1]
      ?.replace(/&amp;/g, '&');
    expect(link).toBeDefined();
    const url = new URL(link ?? '');
    const onB = await fetch(`${b.url}${url.pathname}${url.search}`);
    expect(onB.status).toBe(200);
    expect(await onB.text()).toContain('DRAFT-SECRET-TEXT-9c1e');
  });

  test('a publish from the CLI is seen by both', async () => {
    for (const instance of [a, b]) await text(instance, '/contact');
    const body = path.join(import.meta.dir, '../../README.md');
    const cli = Bun.spawn(
      [
        'bun',
        'run',
        '--silent',
        'folio',
        'page',
        'put',
        'contact',
        '--title',
        'Contact (from the CLI)',
        '--body-file',
        body,
        '--publish',
      ],
      {
        cwd: path.join(import.meta.dir, '../..'),
        env: { ...process.env, DATABASE_URL: database.url },
        stdout: 'pipe',
        stderr: 'pipe',
      },
    );
    expect(await cli.exited).toBe(0);
    // The CLI waits for no listener: each instance hears the NOTIFY a moment after the commit.
    for (const instance of [a, b])
      await waitFor(
        async () =>
          (await text(instance, '/contact')).includes('Contact (from the CLI)') ? true : undefined,
        { timeoutMs: 3_000, what: `the CLI's publish on ${instance.url}` },
      );
  });

  test('neither reported anything as a bug', () => {
    for (const instance of [a, b]) expect(instance.unexpectedErrors()).toEqual([]);
  });
});
