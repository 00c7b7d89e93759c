// The audit trail as an Administrator uses it (issue 28, docs/decisions/0041): signing in with
// the real form leaves an entry, the bar's menu leads to the trail, the entry is there with the
// editor's email, and the What filter (a GET form, no JavaScript needed) narrows the list.
// axe checks the screen in light and dark at 1280 and 390 px (accessibility.spec.ts).
import { EDITOR, expect, test } from './fixtures';

test('the audit trail shows a sign-in, reached from the bar, and filters by what', async ({
  page,
  signInWithForm,
}) => {
  await signInWithForm(page);
  await page.goto('/preview');
  await page.getByRole('link', { name: 'Audit trail' }).click();
  await expect(page).toHaveURL(/\/preview\?audit$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Audit trail' })).toBeVisible();
  const signIn = page
    .getByRole('row')
    .filter({ hasText: 'Signed in' })
    .filter({ hasText: EDITOR.email });
  await expect(signIn.first()).toBeVisible();

  await page.getByLabel('What').selectOption('sign-in');
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page).toHaveURL(/what=sign-in(&|$)/);
  const kinds = await page.locator('.audit-table td[data-action]').allTextContents();
  expect(kinds.length).toBeGreaterThan(0);
  expect(new Set(kinds)).toEqual(new Set(['Signed in']));
});
