// Issue 28's whole loop in Chromium, one person per browser: the Owner invites a Contributor
// and an Editor; each accepts in a fresh browser; the Contributor writes a page and submits it
// (no Publish for them); the Editor opens the review, sends it back with a note; the Contributor
// reads the note in the banner, edits and submits again; the Editor publishes; a visitor reads
// it; and the Owner's audit trail shows each step, by whom. Passkeys and two-factor codes have
// their own spec (security.spec.ts), as the people, review and audit screens do theirs.
import type { Browser, Page } from '@playwright/test';
import { expect, test, watchPageErrors } from './fixtures';

const PASSWORD = 'the team passphrase';

/** The invitation link for `email` as `role`, made on the People screen by `owner`. */
async function invite(owner: Page, email: string, role: string): Promise<string> {
  await owner.goto('/preview?people');
  await expect(owner.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await owner.getByLabel('Email').fill(email);
  await owner.locator('.invite-form').getByRole('combobox').selectOption(role);
  await owner.getByRole('button', { name: 'Invite' }).click();
  const shown = owner.getByLabel('Invitation link');
  await expect(shown).toHaveValue(/\/preview\?invite=/);
  return shown.inputValue();
}

/** A fresh browser that accepts `link`: signed in as the invited person. */
async function accept(browser: Browser, link: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(link);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.getByLabel('Choose a password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Join and sign in' }).click();
  await expect(page).toHaveURL(/\/preview$/);
  return page;
}

test('invite → accept → a Contributor writes and submits → sent back → resubmitted → published; the audit trail shows it all', async ({
  page: owner,
  browser,
  signIn,
}) => {
  test.setTimeout(120_000);
  const problems = watchPageErrors(owner);
  const stamp = Date.now();
  const writer = `writer-${stamp}@example.com`;
  const reviewer = `reviewer-${stamp}@example.com`;
  const slug = `team-rota-${stamp}`;
  const title = `Volunteer rota ${stamp}`;
  await signIn(owner);
  const contributor = await accept(browser, await invite(owner, writer, 'contributor'));
  const editor = await accept(browser, await invite(owner, reviewer, 'editor'));

  // The Contributor writes (without waiting for the autosave) and submits; no Publish for them.
  await contributor.goto('/preview?new');
  await expect(contributor.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await contributor.getByRole('textbox', { name: /^Title/ }).fill(title);
  await contributor.locator('input[name="slug"]').fill(slug);
  await contributor.locator('.cm-content').click();
  await contributor.keyboard.type('Saturdays from nine. Bring gloves.');
  await contributor.getByRole('button', { name: 'Create draft' }).click();
  await expect(contributor).toHaveURL(new RegExp(`/preview/${slug}\\?edit`));
  await contributor.goto(`/preview/${slug}`);
  await expect(contributor.getByRole('button', { name: 'Publish', exact: true })).toHaveCount(0);
  await contributor.getByRole('button', { name: 'Submit for review' }).first().click();
  await expect(contributor.getByText(/waiting for review/i).first()).toBeVisible();

  // The Editor finds it waiting, reads the diff and sends it back with a note.
  await editor.goto('/preview?state=review');
  await expect(editor.getByRole('link', { name: title, exact: true })).toBeVisible();
  await editor.goto(`/preview/${slug}?review`);
  await expect(editor.getByText('Saturdays from nine. Bring gloves.')).toBeVisible();
  await editor.getByLabel(/Note for the writer/).fill('Say where we meet, please.');
  await editor.getByRole('button', { name: 'Send back' }).click();
  await expect(editor.getByText(/sent back/i).first()).toBeVisible();

  // The Contributor reads the note, edits and submits again.
  await contributor.goto(`/preview/${slug}`);
  await expect(contributor.getByText('Say where we meet, please.')).toBeVisible();
  await contributor.goto(`/preview/${slug}?edit`);
  await expect(contributor.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await contributor.locator('.cm-content').click();
  await contributor.keyboard.press('Control+End');
  await contributor.keyboard.type(' We meet at the gate.');
  await contributor.getByRole('button', { name: 'Save draft' }).click();
  await expect(contributor).toHaveURL(/notice=saved/);
  await contributor.goto(`/preview/${slug}`);
  await contributor.getByRole('button', { name: 'Submit for review' }).first().click();
  await expect(contributor.getByText(/waiting for review/i).first()).toBeVisible();

  // The Editor publishes it; a visitor reads it.
  await editor.goto(`/preview/${slug}?review`);
  await expect(editor.getByText('We meet at the gate.')).toBeVisible();
  await editor.getByRole('button', { name: 'Publish this draft' }).click();
  await expect(editor.getByText(/published/i).first()).toBeVisible();
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(`/${slug}`);
  await expect(
    visitor.getByText('Saturdays from nine. Bring gloves. We meet at the gate.'),
  ).toBeVisible();

  // The Owner's audit trail: each step, by whom, newest first.
  await owner.goto(`/preview?audit&page=${encodeURIComponent(`/${slug}`)}`);
  const rows = owner.locator('table tbody tr');
  await expect(rows.filter({ hasText: 'Published' }).filter({ hasText: reviewer })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'Sent back' }).filter({ hasText: reviewer })).toHaveCount(1);
  await expect(
    rows.filter({ hasText: 'Submitted for review' }).filter({ hasText: writer }),
  ).toHaveCount(2);
  await owner.goto('/preview?audit');
  await expect(
    owner
      .locator('table tbody tr')
      .filter({ hasText: 'Invitation accepted' })
      .filter({ hasText: writer }),
  ).toHaveCount(1);
  for (const context of [contributor, editor, visitor].map((p) => p.context()))
    await context.close();
  expect(problems()).toEqual([]);
});
