// People (issue 28) as a person does it in Chromium: the Owner invites someone from the People
// screen, copies the link shown once, and the invitee — in a fresh browser, signed out — opens
// it, chooses a password and is signed in with the role they were invited as. The link is then
// refused. Every refusal and action is also tested through the server (tests/integration).
import { expect, test, watchPageErrors } from './fixtures';

test('invite → accept in a fresh browser → signed in as that role; the link works once', async ({
  page,
  browser,
  signIn,
}) => {
  const problems = watchPageErrors(page);
  const email = `invitee-${Date.now()}@example.com`;
  await signIn(page);
  await page.getByRole('link', { name: 'People' }).first().click();
  await expect(page.getByRole('heading', { name: 'People', level: 1 })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.getByLabel('Email').fill(email);
  await page.locator('.invite-form').getByRole('combobox').selectOption('author');
  await page.getByRole('button', { name: 'Invite' }).click();
  const shown = page.getByLabel('Invitation link');
  await expect(shown).toHaveValue(/\/preview\?invite=[A-Za-z0-9_-]{43}$/);
  const link = await shown.inputValue();
  // Pending, listed without its link.
  await page.goto('/preview?people');
  await expect(page.getByRole('row', { name: new RegExp(email) })).toContainText('Invited');
  expect(await page.content()).not.toContain(link.split('invite=')[1]);

  const fresh = await browser.newContext();
  const invitee = await fresh.newPage();
  const inviteeProblems = watchPageErrors(invitee);
  await invitee.goto(link);
  await expect(invitee.getByRole('heading', { name: 'Join as Author' })).toBeVisible();
  await expect(invitee.getByText(`This invitation is for ${email}`)).toBeVisible();
  await expect(invitee.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await invitee.getByLabel('Choose a password').fill('the invitee passphrase');
  await invitee.getByRole('button', { name: 'Join and sign in' }).click();
  await expect(invitee).toHaveURL(/\/preview$/);
  await expect(invitee.getByRole('link', { name: email })).toBeAttached();
  // An Author: their Sessions, not the People screen (refused in words when asked anyway).
  await expect(invitee.getByRole('link', { name: 'Sessions' })).toBeAttached();
  await expect(invitee.getByRole('link', { name: 'People' })).toHaveCount(0);
  const refused = await invitee.goto('/preview?people');
  expect(refused?.status()).toBe(403);
  await expect(invitee.getByRole('alert')).toContainText('Authors may not');
  await invitee.goto('/preview?sessions');
  await expect(invitee.getByText('(this session)')).toBeVisible();
  await fresh.close();

  // A second use, in yet another browser: refused in words.
  const other = await browser.newContext();
  const again = await other.newPage();
  const response = await again.goto(link);
  expect(response?.status()).toBe(410);
  await expect(again.getByRole('alert')).toContainText('already been used');
  await other.close();
  expect(problems()).toEqual([]);
  expect(inviteeProblems()).toEqual([]);
});
