import { expect, test } from '@playwright/test';
import { SEED_DRAFT_MARKERS } from '../../src/lib/seed';

const DRAFT_MARKERS = Object.values(SEED_DRAFT_MARKERS);

test('home renders its content and the site navigation', async ({ page }) => {
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle(/Folio/);
  await expect(page.locator('main h1')).toBeVisible();
  const navLinks = page.locator('nav[aria-label="Site"] li a');
  expect(await navLinks.count()).toBeGreaterThanOrEqual(5);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/$/);
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', /.+/);
});

test('a navigation link routes on the client, without a full page load', async ({ page }) => {
  await page.goto('/');
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
  expect(sameDocument).toBe(true);
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

test('a draft-only page is a 404 and no draft text appears in any public response', async ({
  page,
  request,
}) => {
  const response = await page.goto('/upcoming-feature');
  expect(response?.status()).toBe(404);
  const bodies = await Promise.all(
    [
      '/upcoming-feature',
      '/RSC/R/upcoming-feature.txt',
      '/release-notes',
      '/RSC/R/release-notes.txt',
      '/',
      '/RSC/R/_root.txt',
      '/sitemap.xml',
      '/robots.txt',
    ].map(async (path) => ({ path, text: await (await request.get(path)).text() })),
  );
  for (const { path, text } of bodies) {
    for (const marker of DRAFT_MARKERS) {
      expect(text.includes(marker), `${marker} leaked in ${path}`).toBe(false);
    }
  }
  const sitemap = bodies.find((b) => b.path === '/sitemap.xml')?.text ?? '';
  expect(sitemap).toContain('/release-notes</loc>');
  expect(sitemap).not.toContain('upcoming-feature');
});

test('a renamed slug answers 301 with the current slug', async ({ request }) => {
  const response = await request.get('/style-guide', { maxRedirects: 0 });
  expect(response.status()).toBe(301);
  expect(response.headers().location).toBe('/editorial-guidelines');
});

test('trailing slashes and upper case redirect 308 to the canonical path', async ({ request }) => {
  const slash = await request.get('/about/', { maxRedirects: 0 });
  expect(slash.status()).toBe(308);
  expect(slash.headers().location).toBe('/about');
  const upper = await request.get('/About?x=1', { maxRedirects: 0 });
  expect(upper.status()).toBe(308);
  expect(upper.headers().location).toBe('/about?x=1');
});

test('robots, sitemap and health check', async ({ request }) => {
  const robots = await request.get('/robots.txt');
  expect(robots.status()).toBe(200);
  expect(await robots.text()).toContain('Disallow: /preview');
  const sitemap = await request.get('/sitemap.xml');
  expect(sitemap.headers()['content-type']).toContain('xml');
  expect(await sitemap.text()).toContain('<urlset');
  const health = await request.get('/healthz');
  expect(health.status()).toBe(200);
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
