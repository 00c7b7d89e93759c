// People (issue 28) as a person does it in Chromium: the Owner invites someone from the People
// screen, copies the link shown once, and the invitee — in a fresh browser, signed out — opens
// it, chooses a password and is signed in with the role they were invited as. The link is then
// refused. Every refusal and action is also tested through the server (tests/integration).
import AxeBuilder from '@axe-core/playwright';
import { BROWSER_SIDE, expect, test, watchPageErrors } from './fixtures';

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

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
  await expect(invitee.getByText(`This invitation is for ${email}, as Author`)).toBeVisible();
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

// The three screens this part adds pass axe (WCAG 2.2 AA), light and dark, 1280 and 390 px, as
// accessibility.spec.ts checks the others (one load each, four looks).
// Markup only (the screens' data is the same code on both engines): the SQLite half runs it, as
// accessibility.spec.ts runs once (playwright.config.ts).
test(
  'the People, Sessions and invitation screens pass axe, light and dark, 1280 and 390 px',
  BROWSER_SIDE,
  async ({ page, browser, signIn, baseURL }) => {
    // Twelve axe scans: over a minute with both cores busy.
    test.setTimeout(180_000);
    await signIn(page, '/preview?people');
    await page.getByLabel('Email').fill(`axe-${Date.now()}@example.com`);
    await page.getByRole('button', { name: 'Invite' }).click();
    const link = await page.getByLabel('Invitation link').inputValue();
    const signedOut = await (await browser.newContext({ baseURL })).newPage();
    const screens = [
      { page, path: '/preview?people' },
      { page, path: '/preview?sessions' },
      { page: signedOut, path: new URL(link).pathname + new URL(link).search },
    ];
    const found: string[] = [];
    for (const screen of screens) {
      await screen.page.setViewportSize({ width: 1280, height: 900 });
      await screen.page.goto(screen.path);
      await expect(screen.page.locator('html')).toHaveAttribute('data-hydrated', 'true');
      for (const colorScheme of ['light', 'dark'] as const)
        for (const width of [1280, 390]) {
          await screen.page.emulateMedia({ colorScheme });
          await screen.page.setViewportSize({ width, height: 900 });
          if (process.env.PEOPLE_SCREENSHOTS)
            await screen.page.screenshot({
              path: `${process.env.PEOPLE_SCREENSHOTS}/${screen.path.slice(9, 17).replace(/\W/g, '')}-${colorScheme}-${width}.png`,
              fullPage: true,
            });
          const results = await new AxeBuilder({ page: screen.page })
            .withTags(WCAG_22_AA)
            .analyze();
          for (const violation of results.violations)
            for (const node of violation.nodes)
              found.push(
                `${screen.path} ${colorScheme} ${width}: ${violation.id} ${node.target.join(' ')}`,
              );
        }
    }
    expect(found).toEqual([]);
  },
);
