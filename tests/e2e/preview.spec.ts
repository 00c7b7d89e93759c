import { openDatabase } from '../../src/lib/db';
import { createPreviewToken } from '../../src/lib/preview-links';
import { siteSecret } from '../../src/lib/secrets';
import { SEED_DRAFT_MARKERS } from '../../src/lib/seed';
import { EDITOR, expect, test } from './fixtures';

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

test('a wrong password is refused without saying whether the account exists', async ({
  page,
  signIn,
}) => {
  void signIn;
  await page.goto('/preview');
  await page.getByLabel('Email').fill(EDITOR.email);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  const known = await page.getByRole('alert').textContent();
  await page.getByLabel('Email').fill('nobody@example.com');
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText(known ?? '');
  await expect(page.getByLabel('Email')).toHaveValue('nobody@example.com');
});

for (const javaScriptEnabled of [true, false]) {
  test.describe(`editing with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled });

    test('edit, save, see the draft only in preview, publish, rename, sign out', async ({
      page,
      request,
      signIn,
      seedPage,
      context,
    }) => {
      const slug = `e2e-edit-${javaScriptEnabled ? 'js' : 'nojs'}`;
      await seedPage({ slug, title: 'Editable page', body: 'Original body text.' });
      await signIn(page);
      const cookies = await context.cookies();
      const session = cookies.find((cookie) => cookie.name === 'folio_session');
      expect(session?.httpOnly).toBe(true);
      expect(session?.sameSite).toBe('Lax');

      await page.goto('/preview');
      await expect(page.getByRole('table')).toContainText('draft only');
      await page.goto(`/preview/${slug}`);
      await page.getByRole('link', { name: 'Edit', exact: true }).click();
      await expect(page).toHaveURL(/\?edit$/);
      if (javaScriptEnabled)
        await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
      await page.getByLabel('Body (Markdown)').fill('Changed body: DRAFT-E2E-TEXT.');
      await page.getByRole('button', { name: 'Save draft' }).click();
      await expect(page.getByRole('status')).toContainText('Draft saved');
      await expect(page.locator('article')).toContainText('DRAFT-E2E-TEXT');
      expect(await (await request.get(`/${slug}`)).text()).not.toContain('DRAFT-E2E-TEXT');

      await page.getByRole('button', { name: 'Publish this draft' }).click();
      await expect(page.getByRole('status')).toContainText('Published');
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

test('two editors saving the same page: the second is refused and keeps their text', async ({
  browser,
  signIn,
  seedPage,
}) => {
  const slug = 'e2e-conflict';
  await seedPage({ slug, title: 'Conflict page', body: 'Base text.' });
  const first = await (await browser.newContext()).newPage();
  const second = await (await browser.newContext()).newPage();
  await signIn(first);
  await signIn(second);
  await first.goto(`/preview/${slug}?edit`);
  await second.goto(`/preview/${slug}?edit`);
  await expect(first.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await expect(second.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await first.getByLabel('Body (Markdown)').fill('Text from the first editor.');
  await first.getByRole('button', { name: 'Save draft' }).click();
  await expect(first.getByRole('status')).toContainText('Draft saved');
  await second.getByLabel('Body (Markdown)').fill('Text from the second editor.');
  await second.getByRole('button', { name: 'Save draft' }).click();
  await expect(second.getByRole('alert')).toContainText('someone else saved this page');
  await expect(second.getByLabel('Saved meanwhile')).toContainText('Text from the first editor.');
  await expect(second.getByLabel('Body (Markdown)')).toHaveValue('Text from the second editor.');
  // Saving again, knowingly, replaces the other version.
  await second.getByRole('button', { name: 'Save draft' }).click();
  await expect(second.getByRole('status')).toContainText('Draft saved');
  await expect(second.locator('article')).toContainText('Text from the second editor.');
});

test('a share link works signed out, read-only, and stops working after expiry', async ({
  page,
  browser,
  signIn,
}) => {
  await signIn(page);
  await page.goto('/preview/upcoming-feature');
  await page.getByLabel('Share for').selectOption('1h');
  await page.getByRole('button', { name: 'Create share link' }).click();
  const url = await page.getByLabel('Share link').inputValue();
  expect(url).toContain('/preview/upcoming-feature?share=');
  const reviewer = await (await browser.newContext()).newPage();
  const ok = await reviewer.goto(url);
  expect(ok?.status()).toBe(200);
  await expect(reviewer.locator('article')).toContainText(SEED_DRAFT_MARKERS.draftOnlyPage);
  await expect(reviewer.getByRole('button', { name: 'Publish this draft' })).toHaveCount(0);
  // The same token for another page, a tampered token, and an expired one: 403 pages.
  const token = new URL(url).searchParams.get('share') ?? '';
  expect((await reviewer.goto(`/preview/about?share=${encodeURIComponent(token)}`))?.status()).toBe(
    403,
  );
  const tampered = await reviewer.goto(
    `/preview/upcoming-feature?share=${encodeURIComponent(`${token}x`)}`,
  );
  expect(tampered?.status()).toBe(403);
  await expect(reviewer.getByRole('heading')).toContainText('expired or is not valid');
  // A link made by the same signer whose lifetime is over: refused as expired.
  const db = openDatabase(`sqlite:${process.env.E2E_DATABASE_PATH}`);
  const expired = createPreviewToken(siteSecret(db), 'upcoming-feature', {
    ttlSeconds: 60,
    now: Date.now() - 120_000,
  });
  db.close();
  const gone = await reviewer.goto(
    `/preview/upcoming-feature?share=${encodeURIComponent(expired)}`,
  );
  expect(gone?.status()).toBe(403);
  expect(await reviewer.content()).not.toContain(SEED_DRAFT_MARKERS.draftOnlyPage);
});

test('no draft text reaches a visitor, even with a forged or expired session cookie', async ({
  browser,
  request,
}) => {
  const markers = Object.values(SEED_DRAFT_MARKERS);
  const cookies = ['', 'folio_session=forged', `folio_session=${'A'.repeat(43)}`, 'folio_session='];
  const paths = [
    '/',
    '/release-notes',
    '/upcoming-feature',
    '/RSC/R/_root.txt',
    '/RSC/R/release-notes.txt',
    '/RSC/R/upcoming-feature.txt',
    '/sitemap.xml',
    '/no-such-page',
    '/preview',
    '/preview/upcoming-feature',
    '/RSC/R/preview/upcoming-feature.txt',
  ];
  for (const cookie of cookies) {
    for (const path of paths) {
      const response = await request.get(path, {
        headers: cookie ? { cookie } : {},
        maxRedirects: 0,
      });
      const text = await response.text();
      for (const marker of markers)
        expect(text.includes(marker), `${marker} in ${path} with "${cookie}"`).toBe(false);
    }
  }
  void browser;
});

test('a cross-origin action POST is refused with 403', async ({ request }) => {
  for (const origin of ['https://evil.example', 'null']) {
    const response = await request.post('/preview', {
      headers: { origin, 'content-type': 'multipart/form-data; boundary=x' },
      data: '--x\r\nContent-Disposition: form-data; name="$ACTION_ID_abc"\r\n\r\n\r\n--x--\r\n',
      maxRedirects: 0,
    });
    expect(response.status(), origin).toBe(403);
  }
});
