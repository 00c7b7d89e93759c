// The editor's live pane shows a listing directive as the page will (issue 27's leftovers): the
// newest published posts of the topic (a draft of that topic is not listed), a bad directive as
// the saved preview's message, a listing on first paint after a reload, and a post's topics
// as typed above its text.
import type { Page } from '@playwright/test';
import { bodyEditor, expect, test } from './fixtures';

const TOPIC = 'E2E Live Listing';
const TOPIC_SLUG = 'e2e-live-listing';
const pane = (page: Page) => page.getByRole('region', { name: 'Preview as visitors will see it' });

test('a listing directive in the live pane lists published posts, as the saved preview does', async ({
  page,
  signIn,
  seedPage,
  store,
}) => {
  const post = (slug: string, title: string, publish: boolean) =>
    store.saveDraft(
      {
        slug,
        title,
        summary: `${title} summary`,
        body: `${title} body`,
        expectedVersion: null,
        editor: null,
        post: { kind: 'post', topics: [TOPIC] },
      },
      { publish },
    );
  await post('e2e-live-listed', 'E2E listed in the pane', true);
  await post('e2e-live-draft', 'E2E draft not listed', false);
  const slug = 'e2e-live-listing-page';
  await seedPage({ slug, title: 'Live listing page', body: 'Intro.' });
  await signIn(page, `/preview/${slug}?edit`);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const body = bodyEditor(page);
  await body.ready();

  await body.typeAtEnd(`\n\n{{ posts topic=${TOPIC_SLUG} limit=3 }}`);
  await expect(pane(page).getByRole('link', { name: 'E2E listed in the pane' })).toBeVisible();
  await expect(pane(page).getByRole('link', { name: 'E2E listed in the pane' })).toHaveAttribute(
    'href',
    '/preview/e2e-live-listed',
  );
  await expect(pane(page).getByText('E2E draft not listed')).toHaveCount(0);
  await expect(pane(page).getByText('{{ posts', { exact: false })).toHaveCount(0);

  // A bad directive: the saved preview's words, in the pane.
  await body.typeAtEnd('\n\n{{ posts limit=99 }}');
  await expect(
    pane(page).getByRole('note').filter({ hasText: 'This listing is not shown to visitors' }),
  ).toContainText('limit is a number from 1 to 20, not “99”.');
  await expect(pane(page).getByRole('link', { name: 'E2E listed in the pane' })).toBeVisible();

  // Saved and opened again: the pane's first paint lists them too.
  await page.keyboard.press('Control+s');
  await expect(page.locator('.editor-status')).toContainText(/saved/i);
  await page.reload();
  await expect(pane(page).getByRole('link', { name: 'E2E listed in the pane' })).toBeVisible();
  await expect(pane(page).getByRole('note')).toContainText('not “99”');
});

test('a post’s topics typed in the editor show above its text in the live pane', async ({
  page,
  signIn,
  seedPage,
}) => {
  const slug = 'e2e-live-topics';
  await seedPage({ slug, title: 'Live topics', body: 'Text.' });
  await signIn(page, `/preview/${slug}?edit`);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.getByRole('radio', { name: /^Post/ }).check();
  await page.getByRole('combobox', { name: /^Topics/ }).fill('E2E Gardens, E2E Café');
  const topics = pane(page).locator('.post-topics');
  await expect(topics.getByRole('link', { name: 'E2E Gardens' })).toHaveAttribute(
    'href',
    '/preview/e2e-gardens',
  );
  await expect(topics.getByRole('link', { name: 'E2E Café' })).toBeVisible();
  // A page has no topics line.
  await page.getByRole('radio', { name: /^Page/ }).check();
  await expect(topics).toHaveCount(0);
});
