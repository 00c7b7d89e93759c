// The public header keeps one height on every page (issue 27): it was 64 px on some pages and
// 97 px on others at 1280 px, because the current page's bolder link widened a nearly full
// row until it wrapped, so the content jumped 33 px as a visitor moved between pages.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

// Home (no link is current), the two pages whose bold link used to wrap the row, a short one,
// and the 404.
const PAGES = ['/', '/getting-started', '/writing-in-markdown', '/about', '/no-such-page'];

const headerHeight = (page: Page) =>
  page.locator('.site-header').evaluate((header) => header.getBoundingClientRect().height);

for (const width of [1280, 390]) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test.describe(`${width} px, ${colorScheme}`, () => {
      test.use({ viewport: { width, height: 800 }, colorScheme });

      test('the header has one height on every page, loaded or navigated to', async ({ page }) => {
        const heights: Record<string, number> = {};
        for (const path of PAGES) {
          await page.goto(path);
          heights[path] = await headerHeight(page);
        }
        // A client-side navigation marks the current link in the browser: the same height.
        await page.goto('/');
        await page
          .getByRole('navigation', { name: 'Site' })
          .getByRole('link', { name: 'Writing in Markdown' })
          .first()
          .click();
        await expect(page).toHaveURL(/\/writing-in-markdown$/);
        await expect(
          page.locator('.nav a[aria-current="page"]', { hasText: 'Writing in Markdown' }),
        ).toHaveCount(1);
        heights['/writing-in-markdown (navigated)'] = await headerHeight(page);
        const home = heights['/'] ?? 0;
        expect(home).toBeGreaterThan(0);
        expect(heights).toEqual(Object.fromEntries(Object.keys(heights).map((k) => [k, home])));
        // At 1280 px the demo's header is two rows whatever the page: brand, tagline and the
        // four links, then the search box on the right (never a third when a link is current).
        if (width === 1280) expect(home).toBeLessThan(115);
      });
    });
  }
}
