// The preview is the site, and a new page is a page once saved (issue 26): the editor's live
// pane shows the page inside the site's header (with the draft navigation) and footer, and a
// new page's first autosave turns the screen into that page's editor — banner, Publish,
// Schedule, Share, History — without losing a character typed meanwhile or the focus.
import type { Page } from '@playwright/test';
import { bodyEditor, expect, test } from './fixtures';

const livePreview = (page: Page) =>
  page.getByRole('region', { name: 'Preview as visitors will see it' });

test('the live pane shows the page inside the site: header with draft titles, and footer', async ({
  page,
  signIn,
  seedPage,
  store,
}) => {
  const slug = 'e2e-pane-frame';
  await seedPage({ slug, title: 'Pane frame', body: 'Framed text.' });
  // A header link's page renamed in a draft: the preview's header shows the draft's title.
  const settings = await store.getSiteSettings();
  const linked = await store.getPage(slug, { draft: true });
  if (!linked) throw new Error('the page was not made');
  await store.saveSiteSettings({
    ...settings,
    // First: a header's first link always stands in its row (a fifth would fold into "More").
    navigation: [linked.id, ...(settings.navigation ?? [])],
  });
  await store.saveDraft({
    slug,
    title: 'Pane frame (draft title)',
    summary: 'Pane frame summary',
    body: 'Framed text.',
    expectedVersion: linked.version,
    editor: null,
  });
  try {
    await signIn(page, `/preview/${slug}?edit`);
    const pane = livePreview(page);
    const siteNav = pane.getByRole('navigation', { name: 'Site' });
    await expect(siteNav.getByRole('link', { name: settings.title })).toHaveAttribute(
      'href',
      '/preview/home',
    );
    await expect(siteNav.getByRole('link', { name: 'Pane frame (draft title)' })).toHaveAttribute(
      'href',
      `/preview/${slug}`,
    );
    await expect(pane.locator('footer.site-footer')).toContainText('Feed');
    await expect(pane.locator('article')).toContainText('Framed text.');
    // The header, the page and the footer in the order visitors get them.
    const top = async (selector: string) =>
      (await pane.locator(selector).boundingBox())?.y ?? Number.NaN;
    expect(await top('header.site-header')).toBeLessThan(await top('article'));
    expect(await top('article')).toBeLessThan(await top('footer.site-footer'));

    // The page's own preview is the site too: the site's header is the document's banner.
    await page.goto(`/preview/${slug}`);
    await expect(
      page.getByRole('banner').getByRole('link', { name: 'Pane frame (draft title)' }),
    ).toBeVisible();
    await expect(page.getByRole('contentinfo')).toContainText('Sitemap');
    await expect(page.getByRole('button', { name: 'Publish this draft' })).toBeVisible();
  } finally {
    await store.saveSiteSettings(settings);
  }
});

test('a new page saved by autosave becomes its page’s editor, keeping the typing and the focus', async ({
  page,
  signIn,
  store,
}) => {
  const slug = 'e2e-autosaved-new-page';
  await signIn(page);
  await page.clock.install();
  await page.goto('/preview?new');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await expect(
    page.getByRole('heading', { name: 'New page', level: 1, exact: true }),
  ).toBeVisible();
  await page.locator('input[name="title"]').fill('Autosaved new page');
  await page.locator('input[name="slug"]').fill(slug);
  const body = page.getByLabel('Body (Markdown)');
  await bodyEditor(page).ready();
  await body.click();
  await body.pressSequentially('First words.');
  await expect(page.locator('.editor-status')).toHaveText('Unsaved changes');
  await page.clock.runFor(3_000);
  // Typing goes on while the save travels and the screen turns into the page's editor.
  await body.pressSequentially(' More typed at once.');
  await expect(page).toHaveURL(new RegExp(`/preview/${slug}\\?edit$`));
  await expect(page.getByRole('button', { name: 'Publish', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create share link' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'History' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'New page', level: 1, exact: true })).toHaveCount(
    0,
  );
  // The text typed during the save is the editor's own, not a lost copy to offer back.
  await expect(page.getByRole('button', { name: 'Put it back' })).toHaveCount(0);
  await body.pressSequentially(' And after.');
  await expect(body).toBeFocused();
  await bodyEditor(page).expectText('First words. More typed at once. And after.');
  // And the rest is saved as the page's draft (no conflict with its own first save).
  await page.clock.runFor(3_000);
  await expect
    .poll(async () => (await store.getPage(slug, { draft: true }))?.bodyMarkdown)
    .toBe('First words. More typed at once. And after.');
  await expect(page.locator('.editor-status')).toContainText('Saved ');
});
