// Menus (issue 27) as an editor and a visitor use them: reordering the header's menu with the
// keyboard (focus stays on the moved entry, the move is announced) and with the mouse (drag and
// drop), a footer link added, and the header keeping its height however long the menu is — a
// long menu folds into "More" (wide) or "Menu" (phone) instead of growing a row.
import type { Page } from '@playwright/test';
import type { ContentStore } from '../../src/lib/content/content';
import { expect, test } from './fixtures';

const DEMO = ['getting-started', 'writing-in-markdown', 'about', 'contact'];

async function demoIds(store: ContentStore): Promise<number[]> {
  const ids: number[] = [];
  for (const slug of DEMO) {
    const page = await store.getPage(slug, { draft: false });
    if (page) ids.push(page.id);
  }
  return ids;
}

// Every test leaves the demo's menus as they were.
test.afterEach(async ({ store }) => {
  const settings = await store.getSiteSettings();
  await store.saveSiteSettings({ ...settings, navigation: await demoIds(store), footerMenu: [] });
});

const headerLinks = (page: Page) =>
  page.getByRole('navigation', { name: 'Site' }).locator(':scope > ul > li > a');
const entry = (page: Page, menu: 'header' | 'footer', text: string) =>
  page.locator(`fieldset[data-menu="${menu}"] li.menu-entry`, { hasText: text });

test('reordering the header with the keyboard keeps focus on the moved entry and says so', async ({
  page,
  signIn,
}) => {
  await signIn(page, '/preview?navigation');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const down = page.getByRole('button', { name: 'Move down: Getting started' });
  await down.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toHaveText(
    'Getting started moved to 2 of 4 in the header.',
  );
  await expect(page.getByRole('button', { name: 'Move down: Getting started' })).toBeFocused();
  await page.keyboard.press('Space');
  await expect(page.getByRole('status')).toHaveText(
    'Getting started moved to 3 of 4 in the header.',
  );
  await expect(page.getByRole('button', { name: 'Move down: Getting started' })).toBeFocused();
  // To the top and back: at the top it has no Move up, and the focus goes to its Move down.
  await page.getByRole('button', { name: 'Move up: About' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Move down: About' })).toBeFocused();
  await expect(page.getByRole('status')).toHaveText('About moved to 1 of 4 in the header.');
  // Nothing is saved until Save.
  await page.goto('/');
  await expect(headerLinks(page)).toHaveText([
    'Getting started',
    'Writing in Markdown',
    'About',
    'Contact',
  ]);
  await page.goto('/preview?navigation');
  await page.getByRole('button', { name: 'Move down: Getting started' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Save menus', exact: true }).last().focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Menus saved.')).toBeVisible();
  await page.goto('/');
  await expect(headerLinks(page)).toHaveText([
    'Writing in Markdown',
    'Getting started',
    'About',
    'Contact',
  ]);
});

test('reordering with the mouse: an entry dragged onto another takes its place', async ({
  page,
  signIn,
}) => {
  // Tall enough that the whole header menu is on screen: the drag never scrolls.
  await page.setViewportSize({ width: 1280, height: 1600 });
  await signIn(page, '/preview?navigation');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  // The mouse as a person moves it: press on the handle, start the drag where it was pressed
  // (Chromium starts it a few pixels on), move over the first entry, let go.
  const grip = await entry(page, 'header', 'Contact').locator('.menu-grip').boundingBox();
  const target = await entry(page, 'header', 'Getting started').boundingBox();
  if (!grip || !target) throw new Error('the entries are not on screen');
  await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
  await page.mouse.down();
  await page.mouse.move(grip.x + grip.width / 2 + 8, grip.y + grip.height / 2 + 8, { steps: 4 });
  await page.mouse.move(target.x + 20, target.y + target.height / 2, { steps: 8 });
  await page.mouse.up();
  await expect(page.getByRole('status')).toHaveText('Contact moved to 1 of 4 in the header.');
  await expect(page.locator('fieldset[data-menu="header"] .menu-what code')).toHaveText([
    '/contact',
    '/getting-started',
    '/writing-in-markdown',
    '/about',
  ]);
  await page.getByRole('button', { name: 'Save menus', exact: true }).last().click();
  await expect(page.getByText('Menus saved.')).toBeVisible();
  await page.goto('/about');
  await expect(headerLinks(page)).toHaveText([
    'Contact',
    'Getting started',
    'Writing in Markdown',
    'About',
  ]);
  await expect(headerLinks(page).filter({ hasText: 'About' })).toHaveAttribute(
    'aria-current',
    'page',
  );
});

test('a footer link: a script address is refused in words, a real one shows in the footer', async ({
  page,
  signIn,
}) => {
  await signIn(page, '/preview?navigation');
  await page.getByRole('button', { name: 'Add a link to the footer' }).click();
  const label = entry(page, 'footer', 'Link').getByLabel('Label');
  await expect(label).toBeFocused();
  await label.fill('Our shop');
  await entry(page, 'footer', 'Link').getByLabel('Address').fill('javascript:alert(1)');
  await page.getByRole('button', { name: 'Save menus', exact: true }).last().click();
  await expect(page.getByRole('alert')).toContainText('not javascript:');
  // What was typed is still there, to be corrected.
  await expect(entry(page, 'footer', 'Link').getByLabel('Label')).toHaveValue('Our shop');
  await entry(page, 'footer', 'Link').getByLabel('Address').fill('https://shop.example.com/');
  await page.getByRole('button', { name: 'Save menus', exact: true }).last().click();
  await expect(page.getByText('Menus saved.')).toBeVisible();
  await page.goto('/');
  const shop = page.getByRole('navigation', { name: 'Footer' }).getByRole('link', {
    name: 'Our shop',
  });
  await expect(shop).toHaveAttribute('href', 'https://shop.example.com/');
  await expect(shop).toHaveAttribute('rel', 'noopener');
  await expect(shop).not.toHaveAttribute('target', /./);
});

const headerHeight = (page: Page) =>
  page.locator('.site-header').evaluate((header) => header.getBoundingClientRect().height);

for (const width of [1280, 390]) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test.describe(`${width} px, ${colorScheme}`, () => {
      test.use({ viewport: { width, height: 800 }, colorScheme });

      test('twenty long entries fold; the header is no taller than with the demo’s four', async ({
        page,
        store,
      }) => {
        await page.goto('/about');
        const demo = await headerHeight(page);
        const settings = await store.getSiteSettings();
        const pages = (await demoIds(store)).map((id, index) => ({
          page: id,
          label: `A page with a long label ${index + 1}`,
        }));
        const links = Array.from({ length: 16 }, (_, index) => ({
          url: `https://example.com/${index}`,
          label: `Somewhere else entirely ${index + 1}`,
        }));
        await store.saveSiteSettings({ ...settings, navigation: [...pages, ...links] });
        for (const path of ['/about', '/', '/getting-started']) {
          await page.goto(path);
          const long = await headerHeight(page);
          if (width === 1280) expect(Math.abs(long - demo), path).toBeLessThan(1);
          else expect(long, path).toBeLessThanOrEqual(demo + 0.5);
        }
        // Every entry is reachable: the row and "More", or the phone's "Menu".
        const nav = page.getByRole('navigation', { name: 'Site' });
        const folded = nav.locator('summary', { hasText: width === 1280 ? 'More' : 'Menu' });
        await folded.click();
        await expect(
          nav.getByRole('link', { name: 'Somewhere else entirely 16' }).last(),
        ).toBeVisible();
      });
    });
  }
}
