// Visitors' search (issue 27): the header's box shows results as one types (client navigations
// to `/?q=`, one history entry for the run of typing, the page never reloaded), and the same
// box searches without JavaScript (a GET form). The demo content's "Writing in Markdown" is
// published on every fresh site.
import AxeBuilder from '@axe-core/playwright';
import { BROWSER_SIDE, expect, test } from './fixtures';

const results = 'main ol.search-results';

test('a visitor types in the header box and sees results as they type', async ({ page }) => {
  await page.goto('/about');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.evaluate(() => {
    (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
  });
  const historyBefore = await page.evaluate(() => history.length);
  const box = page.getByRole('searchbox', { name: 'Search this site' }).first();
  await box.click();
  await box.pressSequentially('markdo', { delay: 60 });
  await expect(page).toHaveURL(/\/\?q=markdo$/);
  await expect(page.locator(results)).toBeVisible();
  const link = page.locator(`${results} a[href="/writing-in-markdown"]`);
  await expect(link).toBeVisible();
  await expect(page.locator(`${results} mark`).first()).toBeVisible();
  // What was typed is still there, and the box still has the focus.
  await expect(box).toHaveValue('markdo');
  await expect(box).toBeFocused();
  // Typing on: the same history entry, replaced.
  await box.pressSequentially('wn', { delay: 60 });
  await expect(page).toHaveURL(/\/\?q=markdown$/);
  await expect(page.locator('main')).toContainText(/pages? match/);
  expect(await page.evaluate(() => history.length)).toBe(historyBefore + 1);
  const sameDocument = await page.evaluate(
    () => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true,
  );
  expect(sameDocument).toBe(true);
  // A result leads to its page.
  await link.click();
  await expect(page).toHaveURL(/\/writing-in-markdown$/);
  await expect(page.locator('main h1')).toHaveText(/Writing in Markdown/);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the header box is a form that searches, and the results page keeps the query', async ({
    page,
  }) => {
    await page.goto('/contact');
    const box = page.getByRole('searchbox', { name: 'Search this site' }).first();
    await box.fill('writing markdown');
    await box.press('Enter');
    await expect(page).toHaveURL(/\/\?q=writing\+markdown$/);
    await expect(page.locator(`${results} a[href="/writing-in-markdown"]`)).toBeVisible();
    await expect(page.locator('main input[name="q"]')).toHaveValue('writing markdown');
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');

    // Nothing found: said so, with a way on.
    await page.locator('main input[name="q"]').fill('zyzzyva quokka');
    await page.locator('main form button[type="submit"]').click();
    await expect(page.locator('main')).toContainText('No page matches');
    await expect(page.locator('main')).toContainText('Try fewer words');
  });
});

// The results page in light and dark, at a desktop's and a phone's width: axe's WCAG 2.2 AA
// rules (as accessibility.spec does for the other screens), and a screenshot of each to look at.
test(
  'the results page passes axe, light and dark, 1280 and 390 px',
  BROWSER_SIDE,
  async ({ page }, info) => {
    await page.goto('/?q=markdown');
    for (const colorScheme of ['light', 'dark'] as const)
      for (const width of [1280, 390]) {
        await page.emulateMedia({ colorScheme });
        await page.setViewportSize({ width, height: 900 });
        const found = await new AxeBuilder({ page })
          .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
          .analyze();
        expect(
          found.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`),
        ).toEqual([]);
        await page.screenshot({
          path: info.outputPath(`search-${colorScheme}-${width}.png`),
          fullPage: true,
        });
      }
  },
);
