import { expect, pageDataPathOf, test } from './fixtures';

test('home renders its content and the site navigation', async ({ page }) => {
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle(/Folio/);
  await expect(page.locator('main h1')).toBeVisible();
  // The demo site's header lists the pages its settings choose, in their order.
  await expect(page.locator('nav[aria-label="Site"] li a')).toHaveText([
    'Getting started',
    'Writing in Markdown',
    'About',
    'Contact',
  ]);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/$/);
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', /.+/);
});

test('a navigation link routes on the client, without a full page load', async ({ page }) => {
  await page.goto('/');
  // Before hydration a click is an ordinary link: the page must be interactive first.
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const pageData: number[] = [];
  page.on('response', (response) => {
    if (pageDataPathOf(response.url()) === '/getting-started') pageData.push(response.status());
  });
  await page.evaluate(() => {
    (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
  });
  const link = page.locator('nav[aria-label="Site"] li a', { hasText: 'Getting started' });
  await link.click();
  await expect(page).toHaveURL(/\/getting-started$/);
  await expect(page.locator('main h1')).toHaveText(/Getting started/i);
  const sameDocument = await page.evaluate(
    () => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true,
  );
  expect(sameDocument, `page data answers: ${pageData.join(', ')}`).toBe(true);
  await expect(page).toHaveTitle(/Getting started/i);
});

test('a page renders its Markdown: headings, lists, a table and a code block', async ({ page }) => {
  await page.goto('/writing-in-markdown');
  await expect(page.locator('article h2').first()).toBeVisible();
  await expect(page.locator('article table')).toHaveCount(1);
  await expect(page.locator('article pre code')).not.toHaveCount(0);
  await expect(page.locator('article ul, article ol').first()).toBeVisible();
});

test('an unknown slug answers 404 with the not-found page', async ({ page }) => {
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
});

test.describe('with JavaScript disabled', () => {
  test.use({ javaScriptEnabled: false });
  test('pages render in full and links are plain links', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('main h1')).toBeVisible();
    await page.locator('nav[aria-label="Site"] li a', { hasText: 'Writing in Markdown' }).click();
    await expect(page).toHaveURL(/\/writing-in-markdown$/);
    await expect(page.locator('article table')).toHaveCount(1);
  });
});

test('the first heading keeps its distance from the header rule on every kind of page', async ({
  page,
}) => {
  for (const path of ['/', '/about', '/no-such-page']) {
    await page.goto(path);
    const gap = await page.evaluate(() => {
      const header = document.querySelector('header')?.getBoundingClientRect();
      const heading = document.querySelector('main h1')?.getBoundingClientRect();
      return header && heading ? heading.top - header.bottom : -1;
    });
    // main's 2rem top padding: the same on a page, the home page and the 404.
    expect(gap, path).toBeGreaterThanOrEqual(24);
  }
});
