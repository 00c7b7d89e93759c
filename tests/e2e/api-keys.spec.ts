// API keys as an Administrator uses them (issue 29, docs/decisions/0047): the bar's menu leads
// to the screen, a key made is shown once (selected when its box is focused, to copy) and
// works against the content API, is listed by its first characters only, and is revoked with
// its row's button. axe checks the screen in light and dark at 1280 and 390 px
// (accessibility.spec.ts).
import { expect, test } from './fixtures';

test('an Administrator makes a key, sees it once, uses it, and revokes it', async ({
  page,
  signInWithForm,
}) => {
  await signInWithForm(page);
  await page.goto('/preview');
  await page.getByRole('link', { name: 'API keys' }).click();
  await expect(page).toHaveURL(/\/preview\?api-keys$/);
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');

  const name = `Browser key ${Date.now()}`;
  await page.getByLabel('Name (who or what uses it)').fill(name);
  await page.getByRole('button', { name: 'Make key' }).click();
  const box = page.getByRole('textbox', { name: 'The new key', exact: true });
  await expect(box).toBeVisible();
  const key = await box.inputValue();
  expect(key).toMatch(/^folio_[A-Za-z0-9_-]{43}$/);
  await expect(page.getByRole('status')).toContainText('shown only this once');
  // Focusing the box selects the whole key, ready to copy.
  await box.focus();
  const selected = await box.evaluate((input: HTMLInputElement) =>
    input.value.slice(input.selectionStart ?? 0, input.selectionEnd ?? 0),
  );
  expect(selected).toBe(key);

  const answer = await page.request.get('/api/v1/site', {
    headers: { authorization: `Bearer ${key}` },
  });
  expect(answer.status()).toBe(200);
  expect(answer.headers()['ratelimit-policy']).toMatch(/^"key";/);

  // The list under the form has its row at once (the action re-renders the screen)...
  await expect(page.getByRole('row').filter({ hasText: name })).toContainText(key.slice(0, 14));
  // ...and after a reload the key is shown no more: the list names it by its first characters.
  await page.reload();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText(key.slice(0, 14));
  expect(await page.content()).not.toContain(key);

  await row.getByRole('button', { name: `Revoke the key ${name}` }).click();
  await expect(page.getByRole('status')).toContainText('Key revoked');
  await expect(page.getByRole('row').filter({ hasText: name })).toContainText('Revoked');
  await expect
    .poll(
      async () =>
        (
          await page.request.get('/api/v1/site', { headers: { authorization: `Bearer ${key}` } })
        ).status(),
      { timeout: 20_000 },
    )
    .toBe(401);
});
