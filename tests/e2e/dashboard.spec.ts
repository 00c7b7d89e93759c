// The editors' dashboard filters as the editor types (issue 26): client navigation to the same
// GET address the form makes (the server filters; the address is bookmarkable; Back works), the
// count announced, the caret kept, a slow answer for older text never shown over a newer one —
// and without JavaScript, the form and its Show button as before.
import type { Page } from '@playwright/test';
import { expect, PAGE_DATA_URL, test } from './fixtures';

// Words no demo page has: the lists below are exactly the pages these tests make.
const WORD = 'zephyrdash';
const PAGES = [
  { slug: 'e2e-dash-one', title: `${WORD} quokka timetable`, body: 'One.' },
  { slug: 'e2e-dash-two', title: `${WORD} office hours`, body: 'Two.' },
  { slug: 'e2e-dash-three', title: `${WORD} draft notes`, body: 'Three.', publish: false },
];

const rows = (page: Page) => page.locator('.page-table tbody tr');
const count = (page: Page) => page.locator('.dashboard-count');
const search = (page: Page) => page.getByLabel('Search');

async function seedAll(seedPage: (input: (typeof PAGES)[number]) => Promise<void>) {
  for (const each of PAGES) await seedPage(each);
}

test.describe('with JavaScript on', () => {
  test('the list follows the typing and the selects, by client navigation, and Back restores the filter', async ({
    page,
    signIn,
    seedPage,
  }) => {
    await seedAll(seedPage);
    await signIn(page);
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    // A full page load would lose this: every change below is a client navigation.
    await page.evaluate(() => {
      (window as unknown as { stayed: boolean }).stayed = true;
    });
    // No Show button once the list follows the fields.
    await expect(page.getByRole('button', { name: 'Show' })).toHaveCount(0);

    await search(page).pressSequentially(WORD, { delay: 30 });
    await expect(page).toHaveURL(new RegExp(`/preview\\?q=${WORD}$`));
    await expect(rows(page)).toHaveCount(3);
    await expect(count(page)).toHaveText(/^3 of \d+ pages$/);
    await expect(count(page)).toHaveAttribute('role', 'status');
    // The caret stays in the box, at the end of what was typed.
    await expect(search(page)).toBeFocused();
    expect(
      await search(page).evaluate((input: HTMLInputElement) => [input.value, input.selectionStart]),
    ).toEqual([WORD, WORD.length]);

    await search(page).pressSequentially(' quokka', { delay: 30 });
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText('quokka timetable');
    await expect(page).toHaveURL(/q=zephyrdash\+quokka$/);

    // Nothing matches: said in the live region.
    await search(page).pressSequentially('zzz', { delay: 30 });
    await expect(count(page)).toHaveText(/^No pages match, of \d+$/);
    await expect(rows(page)).toHaveCount(0);
    await search(page).press('Backspace');
    await search(page).press('Backspace');
    await search(page).press('Backspace');
    await expect(rows(page)).toHaveCount(1);

    // A select changes the list at once, as a history entry of its own.
    await search(page).fill(WORD);
    await expect(rows(page)).toHaveCount(3);
    await page.getByLabel('State').selectOption('draft-only');
    await expect(page).toHaveURL(new RegExp(`q=${WORD}&state=draft-only$`));
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText('draft notes');
    await page.getByLabel('Sort').selectOption('title');
    await expect(page).toHaveURL(/state=draft-only&sort=title$/);

    // Back: the previous filter, in the list and in the fields.
    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`q=${WORD}&state=draft-only$`));
    await expect(page.getByLabel('Sort')).toHaveValue('changed');
    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`/preview\\?q=${WORD}$`));
    await expect(rows(page)).toHaveCount(3);
    await expect(page.getByLabel('State')).toHaveValue('all');
    await expect(search(page)).toHaveValue(WORD);
    // The typing itself was one history entry: one more Back is the list before it.
    await page.goBack();
    await expect(page).toHaveURL(/\/preview$/);
    await expect(search(page)).toHaveValue('');

    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(
      true,
    );
  });

  test('a slow answer for older text never replaces the list for newer text', async ({
    page,
    signIn,
    seedPage,
  }) => {
    await seedAll(seedPage);
    await signIn(page);
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    // The answer for "zephyrdash" is held back until the one for "zephyrdash quokka" is shown.
    let releaseSlow: () => void = () => undefined;
    const slowReleased = new Promise<void>((resolve) => {
      releaseSlow = resolve;
    });
    let slowAsked: () => void = () => undefined;
    const slowSent = new Promise<void>((resolve) => {
      slowAsked = resolve;
    });
    let slowSettled: () => void = () => undefined;
    const slowDone = new Promise<void>((resolve) => {
      slowSettled = resolve;
    });
    await page.route(PAGE_DATA_URL, async (route) => {
      const url = new URL(route.request().url());
      if (url.pathname !== '/preview' || url.searchParams.get('q') !== WORD)
        return route.continue();
      slowAsked();
      await slowReleased;
      // The browser may have given up on it (the newer navigation aborted it): nothing to send.
      await route.continue().catch(() => undefined);
      slowSettled();
    });
    await search(page).pressSequentially(WORD, { delay: 20 });
    await slowSent;
    await search(page).pressSequentially(' quokka', { delay: 20 });
    await expect(page).toHaveURL(/q=zephyrdash\+quokka$/);
    await expect(rows(page)).toHaveCount(1);
    releaseSlow();
    await slowDone;
    // Whatever the old answer did, the list, the count and the box are the newer text's.
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))),
    );
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText('quokka timetable');
    await expect(count(page)).toHaveText(/^1 of \d+ pages$/);
    await expect(search(page)).toHaveValue(`${WORD} quokka`);
    await expect(page).toHaveURL(/q=zephyrdash\+quokka$/);
  });
});

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('the form filters when Show is pressed, at a GET address', async ({
    page,
    signIn,
    seedPage,
  }) => {
    await seedAll(seedPage);
    await signIn(page);
    await search(page).fill(`${WORD} office`);
    await page.getByRole('button', { name: 'Show' }).click();
    await expect(page).toHaveURL(/q=zephyrdash\+office/);
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText('office hours');
    await search(page).fill(WORD);
    await page.getByLabel('State').selectOption('draft-only');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect(rows(page)).toHaveCount(1);
    await expect(count(page)).toHaveText(/^1 of \d+ pages$/);
  });
});
