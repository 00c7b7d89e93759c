// Webhooks (issue 29, decision 0046) as an Administrator does it in Chromium: from the
// dashboard's foot to the Webhooks screen, add an endpoint with two events ticked, copy the
// secret shown once (it is not on the screen after a reload), open its delivery log, and
// remove it. The screen with an endpoint listed passes axe (WCAG 2.2 AA), light and dark, 1280
// and 390 px. Sending, signing and refusals are tested through the server (tests/integration).
import AxeBuilder from '@axe-core/playwright';
import { expect, test, watchPageErrors } from './fixtures';

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

test('add a webhook, see its secret once, open its log, remove it; the screen passes axe', async ({
  page,
  signIn,
}) => {
  test.setTimeout(120_000);
  const problems = watchPageErrors(page);
  const url = `https://hooks.example.com/e2e-${Date.now()}`;
  await signIn(page);
  await page.goto('/preview');
  await page.locator('.dashboard-footer').getByRole('link', { name: 'Webhooks' }).click();
  await expect(page).toHaveURL(/\/preview\?webhooks$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');

  await page.getByLabel(/^URL/).fill(url);
  await page.getByRole('checkbox', { name: /settings\.changed/ }).check();
  await page.getByRole('button', { name: 'Add webhook' }).click();
  const secret = page.locator('.webhook-secret code.secret');
  await expect(secret).toHaveText(/^whsec_[A-Za-z0-9+/]{43}=$/);
  const shown = (await secret.textContent()) ?? '';
  const row = page.getByRole('row').filter({ hasText: url });
  await expect(row).toContainText('page.published');
  await expect(row).toContainText('settings.changed');

  // Shown once: a reload lists the endpoint, not its secret.
  await page.reload();
  await expect(page.getByRole('row').filter({ hasText: url })).toBeVisible();
  expect(await page.content()).not.toContain(shown);

  const found: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const)
    for (const width of [1280, 390]) {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize({ width, height: 900 });
      const results = await new AxeBuilder({ page }).withTags(WCAG_22_AA).analyze();
      for (const violation of results.violations)
        for (const node of violation.nodes)
          found.push(`${colorScheme}, ${width} px: ${violation.id}: ${node.target.join(' ')}`);
    }
  expect(found).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 900 });

  await page
    .getByRole('row')
    .filter({ hasText: url })
    .getByRole('link', { name: 'Delivery log' })
    .click();
  await expect(page.getByRole('heading', { name: /Deliveries to/ })).toContainText(url);
  // Empty, or a delivery already: other tests on this server publish and schedule pages, and
  // an endpoint added for page.published gets the next one (a CI run saw it).
  await expect(
    page.getByText('No deliveries yet').or(page.locator('table.webhook-deliveries')),
  ).toBeVisible();

  await page
    .getByRole('row')
    .filter({ hasText: url })
    .getByRole('button', { name: /^Remove/ })
    .click();
  await expect(page.getByRole('status')).toContainText('Webhook removed');
  await expect(page.getByRole('row').filter({ hasText: url })).toHaveCount(0);
  expect(problems()).toEqual([]);
});
