// The editor findings of the hostile review (issue 11): sign-in throttling, share links, stale
// forms, renamed-slug redirects and password resets, through the no-JavaScript forms against
// the server as the README starts it. Every test here failed before its fix.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { ContentStore } from '../../src/lib/content/content';
import type { Database } from '../../src/lib/data/db';
import { addEditor } from '../../src/lib/editors/accounts';
import { formWithButton, signInWithForm, submitForm } from '../forms';
import { type RunningFolio, startFolio, withStore } from '../harness';

const OWNER = { email: 'owner@example.com', password: 'the owner passphrase' };

async function withDatabase<T>(folio: RunningFolio, work: (db: Database) => Promise<T>) {
  return work(await folio.database());
}

describe('editors', () => {
  let folio: RunningFolio;
  let cookie = '';
  const page = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${folio.url}${path}`, { headers: { cookie, ...headers }, redirect: 'manual' });
  const store = <T>(work: (store: ContentStore) => Promise<T>) => withStore(folio, work);

  beforeAll(async () => {
    folio = await startFolio();
    await withDatabase(folio, (db) => addEditor(db, OWNER.email, OWNER.password));
    cookie = (await signInWithForm(folio.url, OWNER.email, OWNER.password)).cookie;
    expect(cookie).toContain('folio_session=');
  }, 60_000);
  afterAll(async () => {
    await folio?.stop();
  });

  test('a share link is bound to its page: after a rename and a new page at the old slug it does not show the new draft', async () => {
    await store(
      async (s) =>
        await s.putPage({
          slug: 'bound-link',
          title: 'First page',
          summary: '',
          body: 'FIRST-PAGE-DRAFT',
        }),
    );
    const before = await page('/preview/bound-link');
    const share = await submitForm(
      `${folio.url}/preview/bound-link`,
      await formWithButton(await before.text(), 'Create share link'),
      { cookie, set: { ttl: '24h' } },
    );
    const link = /value="(http[^"]*\?share=[^"]+)"/
      .exec(await share.text())?.[1]
      ?.replace(/&amp;/g, '&');
    expect(link).toBeDefined();
    const path = new URL(link ?? '').pathname + new URL(link ?? '').search;
    await store(async (s) => {
      await s.renameSlug('bound-link', 'bound-link-moved');
      await s.putPage({
        slug: 'bound-link',
        title: 'Second page',
        summary: '',
        body: 'SECOND-PAGE-DRAFT',
      });
    });
    const reviewer = await fetch(`${folio.url}${path}`, { redirect: 'follow' });
    const html = await reviewer.text();
    expect(html.includes('SECOND-PAGE-DRAFT')).toBe(false);
    expect(html.includes('FIRST-PAGE-DRAFT')).toBe(true);
  });

  test('a share link cannot outlive what the form offers (7 days), even from a hand-edited form', async () => {
    const before = await page('/preview/upcoming-feature');
    const share = await submitForm(
      `${folio.url}/preview/upcoming-feature`,
      await formWithButton(await before.text(), 'Create share link'),
      { cookie, set: { ttl: '365d' } },
    );
    const html = await share.text();
    expect(html.includes('?share=')).toBe(false);
  });

  test('a stale Publish form does not publish a new page that took the slug', async () => {
    await store(
      async (s) =>
        await s.putPage({ slug: 'stale-publish', title: 'Old', summary: '', body: 'old' }),
    );
    const form = await formWithButton(
      await (await page('/preview/stale-publish')).text(),
      'Publish this draft',
    );
    await store(async (s) => {
      await s.discardDraft('stale-publish');
      await s.putPage({
        slug: 'stale-publish',
        title: 'New',
        summary: '',
        body: 'ANOTHER-EDITORS-DRAFT',
      });
    });
    const response = await submitForm(`${folio.url}/preview/stale-publish`, form, { cookie });
    expect(response.status).toBeLessThan(500);
    expect(await store(async (s) => await s.getPage('stale-publish', { draft: false }))).toBeNull();
  });

  test('a stale Delete form does not delete a new page that took the slug', async () => {
    await store(
      async (s) =>
        await s.putPage({ slug: 'stale-delete', title: 'Old', summary: '', body: 'old' }),
    );
    const form = await formWithButton(
      await (await page('/preview/stale-delete')).text(),
      'Delete for good',
    );
    await store(async (s) => {
      await s.discardDraft('stale-delete');
      await s.putPage({ slug: 'stale-delete', title: 'New', summary: '', body: 'keep me' });
    });
    const response = await submitForm(`${folio.url}/preview/stale-delete`, form, { cookie });
    expect(response.status).toBeLessThan(500);
    expect(
      await store(async (s) => (await s.getPage('stale-delete', { draft: true }))?.title),
    ).toBe('New');
  });

  test('a stale editor form after someone renamed the page keeps the typed text', async () => {
    await store(
      async (s) =>
        await s.putPage({ slug: 'stale-edit', title: 'Edit me', summary: '', body: 'base' }),
    );
    const form = await formWithButton(
      await (await page('/preview/stale-edit?edit')).text(),
      'Save draft',
    );
    await store(async (s) => await s.renameSlug('stale-edit', 'stale-edit-renamed'));
    const response = await submitForm(`${folio.url}/preview/stale-edit?edit`, form, {
      cookie,
      set: { body: 'MY-TYPED-TEXT that must not be lost' },
    });
    // Refused as a conflict (409), with the form.
    expect(response.status).toBe(409);
    // In the form's own field, where the editor can go on with it (not only in the page data).
    const again = await formWithButton(await response.text(), 'Save draft');
    expect(again.fields.find(([name]) => name === 'body')?.[1]).toBe(
      'MY-TYPED-TEXT that must not be lost',
    );
  });

  test('a renamed-slug redirect tells caches to check again', async () => {
    const response = await page('/style-guide', { cookie: '' });
    expect(response.status).toBe(301);
    expect(response.headers.get('cache-control')).toBe('no-cache');
  });

  test('renaming back does not loop, and a page that owns a slug from the history wins', async () => {
    await store(async (s) => {
      await s.putPage(
        { slug: 'round-trip', title: 'Round trip', summary: '', body: 'x' },
        { publish: true },
      );
      await s.renameSlug('round-trip', 'round-trip-2');
      await s.renameSlug('round-trip-2', 'round-trip');
    });
    expect((await page('/round-trip', { cookie: '' })).status).toBe(200);
    const back = await page('/round-trip-2', { cookie: '' });
    expect(back.status).toBe(301);
    expect(back.headers.get('location')).toBe('/round-trip');

    await store(async (s) => {
      await s.putPage(
        { slug: 'owned', title: 'Moved away', summary: '', body: 'x' },
        { publish: true },
      );
      await s.renameSlug('owned', 'owned-elsewhere');
      await s.putPage(
        { slug: 'owned', title: 'The new owner', summary: '', body: 'NEW-OWNER-TEXT' },
        { publish: true },
      );
    });
    const owned = await page('/owned', { cookie: '' });
    expect(owned.status).toBe(200);
    expect((await owned.text()).includes('NEW-OWNER-TEXT')).toBe(true);
  });

  test('a password reset ends the sessions signed in with the old password', async () => {
    const email = 'reset-me@example.com';
    await withDatabase(folio, (db) => addEditor(db, email, 'the first passphrase'));
    const session = (await signInWithForm(folio.url, email, 'the first passphrase')).cookie;
    expect((await fetch(`${folio.url}/preview`, { headers: { cookie: session } })).status).toBe(
      200,
    );
    const reset = Bun.spawn(['bun', 'run', 'folio', 'editor', 'add', email], {
      env: { ...process.env, DATABASE_URL: folio.databaseUrl },
      stdin: new TextEncoder().encode('a brand new passphrase\n'),
      stdout: 'pipe',
      stderr: 'pipe',
    });
    expect(await reset.exited).toBe(0);
    expect((await fetch(`${folio.url}/preview`, { headers: { cookie: session } })).status).toBe(
      401,
    );
  });

  test('a settings form opened before another tab saved is refused with 409, typed values kept, and a no-op save writes no event', async () => {
    const before = await store((s) => s.getSiteSettings());
    const settingsForm = async () =>
      formWithButton(await (await page('/preview?settings')).text(), 'Save settings');
    const events = () =>
      withDatabase(folio, async (db) =>
        Number(
          (
            await db.query<{
              n: number;
            }>`SELECT COUNT(*) AS n FROM events WHERE type = 'settings.changed'`
          )[0]?.n,
        ),
      );
    try {
      const tabA = await settingsForm();
      const tabB = await settingsForm();
      const post = (form: Awaited<ReturnType<typeof settingsForm>>, set: Record<string, string>) =>
        submitForm(`${folio.url}/preview?settings`, form, { cookie, set });
      // Saved as it is: a 303 like any save, but nothing changed, so no event.
      const counted = await events();
      expect((await post(tabA, {})).status).toBe(303);
      expect(await events()).toBe(counted);
      // Tab A saves a tagline; tab B, opened before, saves a footer.
      expect((await post(tabA, { tagline: 'Tagline from tab A' })).status).toBe(303);
      const stale = await post(tabB, { footer: 'Footer from tab B' });
      expect(stale.status).toBe(409);
      const answer = await stale.text();
      expect(answer).toContain('Not saved: the settings were changed since you opened this form');
      expect(answer).toContain('Footer from tab B');
      expect(answer).toContain('Tagline from tab A');
      const home = await (await fetch(`${folio.url}/about`)).text();
      expect(home).toContain('Tagline from tab A');
      expect(home).not.toContain('Footer from tab B');
      // The refusal's form carries the version saved now: saving it again goes through.
      const again = await post(await formWithButton(answer, 'Save settings'), {});
      expect(again.status).toBe(303);
      const after = await store((s) => s.getSiteSettings());
      expect(after.footer).toBe('Footer from tab B');
    } finally {
      await store((s) => s.saveSiteSettings(before));
    }
  });
});

describe('sign-in throttle', () => {
  let folio: RunningFolio;
  /** What the owner's browser keeps after signing out: every cookie but the session's. */
  let ownersDevice = '';
  beforeAll(async () => {
    folio = await startFolio();
    await withDatabase(folio, (db) => addEditor(db, OWNER.email, OWNER.password));
    const earlier = await signInWithForm(folio.url, OWNER.email, OWNER.password);
    expect(earlier.cookie).toContain('folio_session=');
    ownersDevice = earlier.cookie
      .split('; ')
      .filter((pair) => !pair.startsWith('folio_session='))
      .join('; ');
  }, 60_000);
  afterAll(async () => {
    await folio?.stop();
  });

  const TOO_MANY = 'Too many attempts';

  test('simultaneous guesses are counted before any password check: of 40 at once, at most 5 wrong ones are checked', async () => {
    const attempts = Array.from({ length: 40 }, (_, i) =>
      signInWithForm(folio.url, OWNER.email, i === 39 ? OWNER.password : `wrong guess ${i}`),
    );
    const results = await Promise.all(attempts);
    // Five attempts per account per window: whichever arrive first get a password check (if
    // the right one is among them, it signs in); the rest are refused before any check. At
    // most five wrong guesses are ever checked.
    const wrongChecked = results.filter((result) => result.html.includes('do not match'));
    const refused = results.filter((result) => result.html.includes(TOO_MANY));
    expect(wrongChecked.length).toBeLessThanOrEqual(5);
    expect(refused.length).toBeGreaterThanOrEqual(34);
  }, 60_000);

  test('a client-sent X-Forwarded-For does not give an attacker new addresses', async () => {
    let refused = 0;
    for (let i = 0; i < 30; i++) {
      const result = await signInWithForm(folio.url, `nobody-${i}@example.com`, 'wrong', {
        headers: { 'x-forwarded-for': `203.0.113.${i}` },
      });
      if (result.html.includes(TOO_MANY)) refused += 1;
    }
    // 20 failures per address per window (the socket's address: TRUST_PROXY is not set).
    expect(refused).toBeGreaterThanOrEqual(9);
  }, 60_000);

  test('after all that, the owner still signs in from a device they signed in from before', async () => {
    const result = await signInWithForm(folio.url, OWNER.email, OWNER.password, {
      cookie: ownersDevice,
    });
    expect(result.html.includes(TOO_MANY)).toBe(false);
    expect(result.cookie).toContain('folio_session=');
  });
});
