// The phone layout for writing (issue 26): at 390 × 844 the editors' bar and the page's banner
// fold into menus (<details>, so they open without JavaScript too), the title starts in the
// first screen, and Write and Preview are two tabs above the text that keep the body editor's
// text and undo history across a switch. At 1280 px nothing is folded.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { bodyEditor, expect, sessionCookie, test, watchPageErrors } from './fixtures';

const PHONE = { width: 390, height: 844 };
test.use({ viewport: PHONE });

const bannerMenu = (page: Page) => page.locator('summary', { hasText: 'Page actions' });
const barMenu = (page: Page) => page.locator('.preview-header summary', { hasText: 'Menu' });
const writeTab = (page: Page) => page.getByRole('tab', { name: 'Write' });
const previewTab = (page: Page) => page.getByRole('tab', { name: 'Preview' });
const livePane = (page: Page) => page.getByRole('tabpanel', { name: 'Preview' });

async function openEditor(page: Page, slug: string) {
  await page.goto(`/preview/${slug}?edit`);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await bodyEditor(page).ready();
}

test('the title is in the first screen: the bar and the banner are folded into menus', async ({
  page,
  signIn,
  seedPage,
}) => {
  const slug = 'e2e-phone-first-screen';
  await seedPage({ slug, title: 'Phone first screen', body: 'Some text.' });
  await signIn(page);
  await openEditor(page, slug);
  const title = await page.locator('input[name="title"]').boundingBox();
  expect(title, 'the title field has a box').not.toBeNull();
  // The whole field, not only its top edge, is above the fold, in the screen's upper half
  // (unfolded, the bar and the banner put its top at ~690 px)…
  expect((title?.y ?? PHONE.height) + (title?.height ?? 0)).toBeLessThan(PHONE.height / 2);
  // …and the body's text starts in the first screen too (it was ~1 100 px down).
  const text = await page.locator('.body-codemirror .cm-content').boundingBox();
  expect(text?.y ?? PHONE.height).toBeLessThan(PHONE.height);
  // The banner's line says the state; its commands wait behind "Page actions".
  await expect(page.locator('.preview-state')).toHaveText('Published', { useInnerText: true });
  await expect(page.getByRole('button', { name: 'Publish', exact: true })).toBeHidden();
  await expect(page.getByRole('link', { name: 'History' })).toBeHidden();
  // The bar: its links and signing out wait behind "Menu", which opens over the page.
  await expect(page.getByRole('button', { name: 'Sign out', exact: true })).toBeHidden();
  await barMenu(page).click();
  await expect(page.getByRole('button', { name: 'Sign out', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Site settings' })).toBeVisible();
  await barMenu(page).press('Enter');
  await expect(page.getByRole('button', { name: 'Sign out', exact: true })).toBeHidden();
  // Escape closes a menu as any menu does, from inside it, and the focus goes back to its
  // summary (hostile pass: <details> alone ignores Escape).
  await barMenu(page).press('Enter');
  await page.getByRole('link', { name: 'Site settings' }).focus();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Sign out', exact: true })).toBeHidden();
  await expect(barMenu(page)).toBeFocused();
  await bannerMenu(page).click();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('link', { name: 'History' })).toBeHidden();
  await expect(bannerMenu(page)).toBeFocused();
});

test('the banner menu opens and its Share, History and Publish work', async ({
  page,
  signIn,
  seedPage,
  store,
  request,
}) => {
  const slug = 'e2e-phone-publish';
  await seedPage({ slug, title: 'Phone publish', body: 'Written on a phone.', publish: false });
  await signIn(page);
  await openEditor(page, slug);
  await expect(page.locator('.preview-state')).toHaveText('Draft only', { useInnerText: true });
  // Opened from the keyboard: the summary is a button in the Tab order.
  await bannerMenu(page).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText(/^Draft only: not published · last change/)).toBeVisible();
  // Share: a link is made and shown, in the menu.
  await page.getByRole('button', { name: 'Create share link' }).click();
  await expect(page.getByRole('textbox', { name: 'Share link' })).toHaveValue(/\?share=/);
  // History: the page's history opens.
  await page.getByRole('link', { name: 'History' }).click();
  await expect(page).toHaveURL(/\?history$/);
  await page.goBack();
  await openEditor(page, slug);
  // Publish: from the folded menu, the draft goes out.
  expect((await request.get(`/${slug}`)).status()).toBe(404);
  await bannerMenu(page).click();
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByText('Published. Visitors see this version now.')).toBeVisible();
  await expect(page.locator('.preview-state')).toHaveText('Published', { useInnerText: true });
  expect(await store.getPage(slug, { draft: false })).not.toBeNull();
  expect(await (await request.get(`/${slug}`)).text()).toContain('Written on a phone.');
});

test('Write and Preview are tabs: the preview shows what was just typed, and Write keeps the text and its undo', async ({
  page,
  signIn,
  seedPage,
}) => {
  const slug = 'e2e-phone-tabs';
  await seedPage({ slug, title: 'Phone tabs', body: 'First paragraph.' });
  await signIn(page);
  await openEditor(page, slug);
  await expect(page.getByRole('tablist', { name: 'Editor view' })).toBeVisible();
  await expect(writeTab(page)).toHaveAttribute('aria-selected', 'true');
  await expect(livePane(page)).toBeHidden();
  const body = bodyEditor(page);
  // The editor's own element, marked: after the switches it must be the same one (not remade).
  await page.locator('.body-codemirror .cm-editor').evaluate((node) => {
    (node as HTMLElement).dataset.phoneMark = 'kept';
  });
  await body.typeAtEnd(' Typed on the phone.');
  await body.expectText('First paragraph. Typed on the phone.');

  await previewTab(page).click();
  await expect(previewTab(page)).toHaveAttribute('aria-selected', 'true');
  await expect(livePane(page)).toBeVisible();
  await expect(livePane(page).locator('article')).toContainText('Typed on the phone.');
  await expect(page.locator('input[name="title"]')).toBeHidden();
  // The pane is the page's length: it starts under the tabs, in the first screen.
  const pane = await livePane(page).boundingBox();
  expect(pane?.y ?? PHONE.height).toBeLessThan(PHONE.height / 2);

  await writeTab(page).click();
  await expect(page.locator('input[name="title"]')).toBeVisible();
  await expect(page.locator('.body-codemirror .cm-editor')).toHaveAttribute(
    'data-phone-mark',
    'kept',
  );
  await body.expectText('First paragraph. Typed on the phone.');
  // The undo history came through the switch: Ctrl+Z takes the typing back.
  await page.locator('.body-codemirror .cm-content').focus();
  await page.keyboard.press('Control+z');
  await body.expectText('First paragraph.');
});

// The hostile pass's repro: Preview chosen, the window widened (no tabs), text typed, then
// narrowed again — Preview came back over the text and the next keys went nowhere.
test('narrowed again after typing wide, the tabs show Write and the next keys reach the text', async ({
  page,
  signIn,
  seedPage,
}) => {
  const slug = 'e2e-phone-rotate';
  await seedPage({ slug, title: 'Phone rotate', body: 'Start.' });
  await signIn(page);
  await openEditor(page, slug);
  await previewTab(page).click();
  await expect(livePane(page)).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByRole('tablist')).toHaveCount(0);
  const body = bodyEditor(page);
  await body.typeAtEnd(' Wide.');
  await page.setViewportSize(PHONE);
  await expect(writeTab(page)).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('.body-codemirror .cm-content')).toBeVisible();
  await page.keyboard.type(' Narrow.');
  await body.expectText('Start. Wide. Narrow.');
});

test('the tabs follow the arrow keys, Home and End (WAI-ARIA tabs)', async ({
  page,
  signIn,
  seedPage,
}) => {
  const slug = 'e2e-phone-tab-keys';
  await seedPage({ slug, title: 'Phone tab keys', body: 'Keys.' });
  await signIn(page);
  await openEditor(page, slug);
  await writeTab(page).focus();
  // Only the chosen tab is in the Tab order.
  await expect(writeTab(page)).toHaveAttribute('tabindex', '0');
  await expect(previewTab(page)).toHaveAttribute('tabindex', '-1');
  await page.keyboard.press('ArrowRight');
  await expect(previewTab(page)).toBeFocused();
  await expect(previewTab(page)).toHaveAttribute('aria-selected', 'true');
  await expect(writeTab(page)).toHaveAttribute('aria-selected', 'false');
  await expect(livePane(page)).toBeVisible();
  await expect(previewTab(page)).toHaveAttribute('aria-controls', 'editor-panel-preview');
  await page.keyboard.press('ArrowRight');
  await expect(writeTab(page)).toBeFocused();
  await expect(page.getByRole('tabpanel', { name: 'Write' })).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await expect(previewTab(page)).toBeFocused();
  await page.keyboard.press('Home');
  await expect(writeTab(page)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('End');
  await expect(previewTab(page)).toHaveAttribute('aria-selected', 'true');
  // Tab leaves the tabs for the chosen panel.
  await page.keyboard.press('Tab');
  await expect(livePane(page)).toBeFocused();
});

test('without JavaScript the folded banner still reaches Publish, and the preview stays stacked', async ({
  browser,
  mintSession,
  baseURL,
  seedPage,
  store,
}) => {
  const slug = 'e2e-phone-no-js';
  await seedPage({ slug, title: 'Phone without JS', body: 'Plain form.', publish: false });
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
  try {
    await context.addCookies([sessionCookie(baseURL ?? '', await mintSession())]);
    const page = await context.newPage();
    const problems = watchPageErrors(page);
    await page.goto(`/preview/${slug}?edit`);
    // No tabs without JavaScript: the form, then the server's preview under it.
    await expect(page.getByRole('tablist')).toHaveCount(0);
    await expect(page.getByLabel('Body (Markdown)')).toBeVisible();
    await expect(
      page.getByRole('region', { name: 'Preview as visitors will see it' }),
    ).toBeVisible();
    // The bar's menu opens without JavaScript.
    await expect(page.getByRole('button', { name: 'Sign out', exact: true })).toBeHidden();
    await barMenu(page).click();
    await expect(page.getByRole('button', { name: 'Sign out', exact: true })).toBeVisible();
    await barMenu(page).click();
    // So does the banner's, and its Publish publishes.
    await expect(page.getByRole('button', { name: 'Publish', exact: true })).toBeHidden();
    await bannerMenu(page).click();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect(page.getByText('Published. Visitors see this version now.')).toBeVisible();
    expect(await store.getPage(slug, { draft: false })).not.toBeNull();
    expect(problems()).toEqual([]);
  } finally {
    await context.close();
  }
});

// accessibility.spec.ts scans the screens as they load (menus closed, Write chosen); this scans
// what they open: both menus and each tab, light and dark.
test('opened, the menus and both tabs pass axe (WCAG 2.2 AA), light and dark', async ({
  page,
  signIn,
  seedPage,
}) => {
  const slug = 'e2e-phone-axe';
  await seedPage({ slug, title: 'Phone axe', body: 'Checked.', publish: false });
  await signIn(page);
  await openEditor(page, slug);
  await bannerMenu(page).click();
  await barMenu(page).click();
  const found: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    for (const tab of [writeTab(page), previewTab(page)]) {
      await tab.click();
      const results = await new AxeBuilder({ page })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
        .analyze();
      for (const violation of results.violations)
        for (const node of violation.nodes)
          found.push(`${colorScheme}: ${violation.id}: ${node.target.join(' ')}`);
    }
  }
  expect(found).toEqual([]);
});

test.describe('at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 860 } });

  test('nothing is folded and there are no tabs: the commands and the pane show as before', async ({
    page,
    signIn,
    seedPage,
  }) => {
    const slug = 'e2e-phone-wide';
    await seedPage({ slug, title: 'Wide screen', body: 'Side by side.' });
    await signIn(page);
    await openEditor(page, slug);
    await expect(bannerMenu(page)).toBeHidden();
    await expect(barMenu(page)).toBeHidden();
    // Published with nothing new: no Publish (nothing to publish), Unpublish beside History.
    await expect(page.getByRole('link', { name: 'Unpublish' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'History' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign out', exact: true })).toBeVisible();
    await expect(page.getByRole('tablist')).toHaveCount(0);
    await expect(
      page.getByRole('region', { name: 'Preview as visitors will see it' }),
    ).toBeVisible();
    // The full state line, as before: state and last change.
    await expect(page.locator('.preview-state')).toContainText(
      'Preview · Published, no unpublished changes · last change',
      { useInnerText: true },
    );
  });
});
