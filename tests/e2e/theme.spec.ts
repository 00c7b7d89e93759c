// The public theme where a phone differs from a desktop (issue 14): a header with more links
// than fit folds them into a "Menu" that opens without JavaScript.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const nav = (page: Page) => page.getByRole('navigation', { name: 'Site' });

// Every published page but home in the header (the demo's settings name four): six links.
test.beforeEach(async ({ store }) => {
  const settings = await store.getSiteSettings();
  const ids = (await store.listAll())
    .filter((listed) => listed.state !== 'draft-only' && listed.slug !== 'home')
    .map((listed) => listed.id);
  await store.saveSiteSettings({ ...settings, navigation: ids });
});
test.afterEach(async ({ store }) => {
  const settings = await store.getSiteSettings();
  const ids = [];
  for (const slug of ['getting-started', 'writing-in-markdown', 'about', 'contact']) {
    const page = await store.getPage(slug, { draft: false });
    if (page) ids.push(page.id);
  }
  await store.saveSiteSettings({ ...settings, navigation: ids });
});

for (const javaScriptEnabled of [true, false]) {
  test.describe(`on a phone, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ viewport: { width: 390, height: 844 }, javaScriptEnabled });

    test('six links fold into a Menu that opens and leads to a page', async ({ page }) => {
      await page.goto('/');
      const menu = nav(page).getByText('Menu', { exact: true });
      await expect(menu).toBeVisible();
      // Hidden links are not in the accessibility tree: found by their text instead.
      const release = page.locator('nav[aria-label="Site"] a', { hasText: 'Release notes' });
      // The row is hidden, and so is the folded list until the menu opens.
      await expect(release).toHaveCount(2);
      await expect(release.first()).toBeHidden();
      await expect(release.last()).toBeHidden();
      await menu.click();
      await expect(release.last()).toBeVisible();
      await page.screenshot({ path: test.info().outputPath('menu-open.png') });
      await release.last().click();
      await expect(page).toHaveURL(/\/release-notes$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Release notes');
      // On the new page the menu is closed again.
      await expect(release.last()).toBeHidden();
    });
  });
}

test("pages are read in the site's serif, served from the site, immutable", async ({ page }) => {
  const fonts: { url: string; type: string | null; cache: string | null }[] = [];
  page.on('response', (response) => {
    if (response.url().endsWith('.woff2'))
      fonts.push({
        url: new URL(response.url()).pathname,
        type: response.headers()['content-type'] ?? null,
        cache: response.headers()['cache-control'] ?? null,
      });
  });
  await page.goto('/getting-started');
  await page.evaluate(() => document.fonts.ready);
  // From the second page on the font is in the cache, within font-display: optional's moment.
  await page.goto('/about');
  const family = await page
    .locator('article p')
    .first()
    .evaluate((element) => getComputedStyle(element).fontFamily);
  expect(family).toMatch(/^"Source Serif"/);
  await expect
    .poll(() => page.evaluate(() => document.fonts.check('18px "Source Serif"')))
    .toBe(true);
  expect(fonts[0]?.url).toMatch(/^\/assets\/source-serif-4-latin-wght-normal-[\w-]+\.woff2$/);
  expect(fonts[0]?.type).toBe('font/woff2');
  expect(fonts[0]?.cache).toContain('immutable');
});

test.describe('on a desktop', () => {
  test.use({ viewport: { width: 1280, height: 860 } });
  // Six links are wider than the header's row (issue 27: the header never grows a row for its
  // menu): those that fit stand in it, the rest are under "More".
  test('the links stand in a row, the rest under More, and there is no Menu', async ({ page }) => {
    await page.goto('/');
    await expect(nav(page).getByText('Menu', { exact: true })).toBeHidden();
    await expect(nav(page).locator(':scope > ul a').first()).toBeVisible();
    await nav(page).getByText('More', { exact: true }).click();
    await expect(nav(page).getByRole('link', { name: 'Release notes' }).first()).toBeVisible();
  });
});

test.describe('a word longer than a phone is wide', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  // Seen in a hostile pass's screenshots: a long unbroken word ran out of the column (and out of
  // the editor's preview pane). It breaks now; a code block still scrolls on its own.
  test('breaks inside the column; the page does not scroll sideways', async ({
    page,
    seedPage,
  }) => {
    const slug = `long-word-${test.info().workerIndex}-${Date.now().toString(36)}`;
    const address = `https://example.com/${'a-long-path-segment/'.repeat(12)}end`;
    const word = 'a'.repeat(120);
    await seedPage({
      slug,
      title: 'A long word',
      body: `Before.\n\n${address}\n\n${word}\n\n\`\`\`\nconst stays = "${'on one line '.repeat(8)}";\n\`\`\``,
      publish: true,
    });
    await page.goto(`/${slug}`);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    // Each paragraph within the column (a page that hides what overflows would pass the above).
    const column = await page.locator('article').evaluate((el) => el.getBoundingClientRect().right);
    for (const paragraph of await page.locator('article p').all())
      expect(await paragraph.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(
        0,
      );
    expect(column).toBeLessThanOrEqual(390);
    // The code block keeps its lines and scrolls inside itself.
    const pre = page.locator('article pre').first();
    expect(await pre.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  });
});
