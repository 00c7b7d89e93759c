import type { Page } from '@playwright/test';
import { createContentStore as createContentStoreFor } from '../../src/lib/content/content';
import { SEED_DRAFT_MARKERS } from '../../src/lib/content/seed';
import { openDatabase } from '../../src/lib/data/db';
import { createPreviewLink } from '../../src/lib/share-links/share-links';
import {
  bodyEditor,
  databaseUrl,
  EDITOR,
  expect,
  sessionCookie,
  test,
  watchPageErrors,
  withoutCoediting,
} from './fixtures';

test('signed out, /preview answers 401 with the sign-in form and no draft content', async ({
  page,
  request,
}) => {
  const response = await page.goto('/preview/upcoming-feature');
  expect(response?.status()).toBe(401);
  expect(response?.headers()['cache-control']).toBe('private, no-store');
  expect(response?.headers()['x-robots-tag']).toBe('noindex');
  await expect(page.getByRole('heading', { name: 'Sign in to preview' })).toBeVisible();
  const html = await (await request.get('/preview/upcoming-feature')).text();
  expect(html).not.toContain(SEED_DRAFT_MARKERS.draftOnlyPage);
  expect(html).not.toContain('Upcoming feature');
});

test('a wrong password is refused without saying whether the account exists', async ({ page }) => {
  // The account exists: tests/e2e/global-setup.ts made it.
  await page.goto('/preview');
  // This is the form with JavaScript: a click before hydration posts it without, and that page
  // does not say why the sign-in failed (found here under load; noted for the next issue).
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.getByLabel('Email').fill(EDITOR.email);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const known = await page.getByRole('alert').textContent();
  await page.getByLabel('Email').fill('nobody@example.com');
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText(known ?? '');
  await expect(page.getByLabel('Email')).toHaveValue('nobody@example.com');
});

/** The banner's notice after a command (the editor's own status line is another status). */
const notice = (page: Page) => page.locator('.notice[role="status"]');
/** The editor's save status: "Saved …", "Saving…", "Not saved: …". */
const editorStatus = (page: Page) => page.locator('.editor-status[role="status"]');

for (const javaScriptEnabled of [true, false]) {
  test.describe(`editing with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled });

    test('edit, save, see the draft only in preview, publish, rename, sign out', async ({
      page,
      request,
      signInWithForm,
      seedPage,
      context,
    }) => {
      const slug = `e2e-edit-${javaScriptEnabled ? 'js' : 'nojs'}`;
      await seedPage({ slug, title: 'Editable page', body: 'Original body text.' });
      // The real form, with and without JavaScript: every other spec mints its session.
      await signInWithForm(page);
      const cookies = await context.cookies();
      const session = cookies.find((cookie) => cookie.name === 'folio_session');
      expect(session?.httpOnly).toBe(true);
      expect(session?.sameSite).toBe('Lax');

      await page.goto('/preview');
      await expect(page.getByRole('table')).toContainText('Draft only');
      await page.goto(`/preview/${slug}`);
      await page.getByRole('link', { name: 'Edit', exact: true }).click();
      await expect(page).toHaveURL(/\?edit$/);
      if (javaScriptEnabled)
        await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
      await bodyEditor(page, { javaScript: javaScriptEnabled }).fill(
        'Changed body: DRAFT-E2E-TEXT.',
      );
      await page.getByRole('button', { name: 'Save draft' }).click();
      await expect(notice(page)).toContainText('Draft saved');
      await expect(editorStatus(page)).toContainText('Saved ');
      await expect(page.locator('article')).toContainText('DRAFT-E2E-TEXT');
      expect(await (await request.get(`/${slug}`)).text()).not.toContain('DRAFT-E2E-TEXT');

      // In the editor, Publish publishes what is on screen: saved or not.
      await bodyEditor(page, { javaScript: javaScriptEnabled }).fill(
        'Changed body: DRAFT-E2E-TEXT, then more.',
      );
      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      await expect(notice(page)).toContainText('Published');
      await expect(page).not.toHaveURL(/[?&]edit/);
      expect(await (await request.get(`/${slug}`)).text()).toContain('then more.');
      expect(await (await request.get(`/${slug}`)).text()).toContain('DRAFT-E2E-TEXT');

      await page.getByRole('link', { name: 'Edit', exact: true }).click();
      await expect(page).toHaveURL(/\?edit$/);
      if (javaScriptEnabled)
        await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
      await page.getByLabel('Slug').fill(`${slug}-renamed`);
      await page.getByRole('button', { name: 'Save draft' }).click();
      await expect(page).toHaveURL(new RegExp(`/preview/${slug}-renamed`));
      const old = await request.get(`/${slug}`, { maxRedirects: 0 });
      expect(old.status()).toBe(301);
      expect(old.headers().location).toBe(`/${slug}-renamed`);

      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await expect(page.getByRole('heading', { name: 'Sign in to preview' })).toBeVisible();
      const after = await page.goto('/preview');
      expect(after?.status()).toBe(401);
    });
  });
}

test("the fixtures' minted session cookie is the one the sign-in form sets", async ({
  browser,
  baseURL,
  mintSession,
  signInWithForm,
}) => {
  // Every other spec signs in with sessionCookie(): if the form's cookie changes (a name, an
  // attribute), they would test a browser state no editor has.
  const formContext = await browser.newContext();
  const formPage = await formContext.newPage();
  const problems = watchPageErrors(formPage);
  await signInWithForm(formPage);
  const formCookie = (await formContext.cookies()).find((c) => c.name === 'folio_session');
  const minted = sessionCookie(baseURL ?? '', await mintSession());
  const mintedContext = await browser.newContext();
  await mintedContext.addCookies([minted]);
  const mintedCookie = (await mintedContext.cookies()).find((c) => c.name === 'folio_session');
  const { value: _f, expires: formExpires, ...formAttributes } = formCookie ?? { expires: 0 };
  const {
    value: _m,
    expires: mintedExpires,
    ...mintedAttributes
  } = mintedCookie ?? {
    expires: 0,
  };
  expect(formCookie).toBeDefined();
  expect(mintedAttributes).toEqual(formAttributes);
  // Both a week from now (Max-Age); a minute apart at most, however slow the machine.
  expect(Math.abs(mintedExpires - formExpires)).toBeLessThan(60);
  // And the minted one signs in.
  const mintedPage = await mintedContext.newPage();
  await mintedPage.goto('/preview');
  await expect(mintedPage.getByRole('navigation', { name: 'Preview' })).toContainText(EDITOR.email);
  expect(problems()).toEqual([]);
  await formContext.close();
  await mintedContext.close();
});

test('two editors saving the same page: the second is refused and keeps their text', async ({
  browser,
  signIn,
  seedPage,
}) => {
  const slug = 'e2e-conflict';
  await seedPage({ slug, title: 'Conflict page', body: 'Base text.' });
  const first = await (await browser.newContext()).newPage();
  const second = await (await browser.newContext()).newPage();
  const problems = [watchPageErrors(first), watchPageErrors(second)];
  // The form's conflict, which two editors bound to the page's shared document never have:
  // without co-editing (coedit.spec.ts has them typing together).
  await withoutCoediting(first);
  await withoutCoediting(second);
  await signIn(first);
  await signIn(second);
  await first.goto(`/preview/${slug}?edit`);
  await second.goto(`/preview/${slug}?edit`);
  await expect(first.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await expect(second.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await bodyEditor(first).fill('Text from the first editor.');
  await first.getByRole('button', { name: 'Save draft' }).click();
  await expect(notice(first)).toContainText('Draft saved');
  await bodyEditor(second).fill('Text from the second editor.');
  await second.getByRole('button', { name: 'Save draft' }).click();
  await expect(second.getByRole('alert')).toContainText(
    // Both tabs are the same editor's account.
    'this page was saved again since you opened it, by you in another tab or window',
  );
  // Theirs against mine, word by word: only the word that differs is marked.
  const body = second.getByLabel('Saved meanwhile').getByLabel('body compared');
  await expect(body.locator('del')).toHaveText('first');
  await expect(body.locator('ins')).toHaveText('second');
  await bodyEditor(second).expectText('Text from the second editor.');
  // Saving again, knowingly, replaces the other version.
  await second.getByRole('button', { name: 'Save draft' }).click();
  await expect(notice(second)).toContainText('Draft saved');
  await expect(second.locator('article')).toContainText('Text from the second editor.');
  expect(problems.flatMap((collected) => collected())).toEqual([]);
});

test('a share link works signed out, read-only, and stops working after expiry', async ({
  page,
  browser,
  signIn,
}) => {
  await signIn(page, '/preview/upcoming-feature');
  await page.getByLabel('Share for').selectOption('1h');
  await page.getByRole('button', { name: 'Create share link' }).click();
  const url = await page.getByLabel('Share link', { exact: true }).inputValue();
  expect(url).toContain('/preview/upcoming-feature?share=');
  const reviewer = await (await browser.newContext()).newPage();
  const problems = watchPageErrors(reviewer);
  const ok = await reviewer.goto(url);
  expect(ok?.status()).toBe(200);
  await expect(reviewer.locator('article')).toContainText(SEED_DRAFT_MARKERS.draftOnlyPage);
  await expect(reviewer.getByRole('button', { name: 'Publish this draft' })).toHaveCount(0);
  // The link is bound to its page: at another page's address it brings the reviewer to its
  // own page, never shows the other one.
  const token = new URL(url).searchParams.get('share') ?? '';
  const elsewhere = await reviewer.goto(`/preview/about?share=${encodeURIComponent(token)}`);
  expect(new URL(elsewhere?.url() ?? '').pathname).toBe('/preview/upcoming-feature');
  await expect(reviewer.locator('article')).toContainText(SEED_DRAFT_MARKERS.draftOnlyPage);
  // A tampered token and an expired one: 403 pages.
  const tampered = await reviewer.goto(
    `/preview/upcoming-feature?share=${encodeURIComponent(`${token}x`)}`,
  );
  expect(tampered?.status()).toBe(403);
  await expect(reviewer.getByRole('heading')).toContainText('expired or is not valid');
  // A link whose lifetime is over: refused like any other.
  const db = await openDatabase(databaseUrl(), { migrate: false, poolSize: 1 });
  const page_ = await createContentStoreFor(db).getPage('upcoming-feature', { draft: true });
  const expired = (
    await createPreviewLink(db, {
      pageId: page_?.id ?? 0,
      createdBy: 'e2e',
      ttlSeconds: 60,
      now: Date.now() - 120_000,
    })
  ).token;
  await db.close();
  const gone = await reviewer.goto(
    `/preview/upcoming-feature?share=${encodeURIComponent(expired)}`,
  );
  expect(gone?.status()).toBe(403);
  expect(await reviewer.content()).not.toContain(SEED_DRAFT_MARKERS.draftOnlyPage);
  expect(problems()).toEqual([]);
});
