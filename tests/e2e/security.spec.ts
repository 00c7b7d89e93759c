// Stronger sign-in (issue 28) in Chromium, as a person does it: a passkey added on the security
// screen (Chromium's virtual authenticator, over CDP, stands in for a phone or a security key),
// then signing in with it and no password; and the authenticator app set up from its key,
// confirmed with a code (the ten recovery codes shown), then asked for after the password; and
// the screen asking for the password again ("Confirm it is you") once a sign-in is old.
// Passkeys are made for SITE_URL's origin, so this spec starts a Folio of its own at
// http://localhost:<port> (the suite's server, at 127.0.0.1 without SITE_URL, cannot have them).
import AxeBuilder from '@axe-core/playwright';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { addEditor } from '../../src/lib/editors/accounts';
import { totpCode } from '../../src/lib/editors/totp';
import { freePort, type RunningFolio, startFolio } from '../harness';
import { BROWSER_SIDE, watchPageErrors } from './fixtures';

const KEYS = { email: 'passkeys@example.com', password: 'the passkeys passphrase' };
const APP = { email: 'authenticator@example.com', password: 'the authenticator passphrase' };
const AXE = { email: 'axe-security@example.com', password: 'the axe passphrase' };
const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

let folio: RunningFolio;
let base = '';

test.beforeAll(async () => {
  const port = freePort();
  base = `http://localhost:${port}`;
  folio = await startFolio({ env: { PORT: String(port), SITE_URL: base } });
  const db = await folio.database();
  await addEditor(db, KEYS.email, KEYS.password, { role: 'editor' });
  await addEditor(db, APP.email, APP.password, { role: 'author' });
  await addEditor(db, AXE.email, AXE.password, { role: 'administrator' });
});
test.afterAll(async () => {
  await folio?.stop();
  expect(folio.unexpectedErrors()).toEqual([]);
});

async function hydrated(page: Page, address: string): Promise<void> {
  await page.goto(`${base}${address}`);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
}

async function signInWithPassword(page: Page, who: { email: string; password: string }) {
  await hydrated(page, '/preview');
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Sets `email`'s sessions' confirmation back past ten minutes, as time passing would. */
async function confirmationGoesStale(email: string) {
  const db = await folio.database();
  await db.query`
    UPDATE editor_sessions SET confirmed_at = ${new Date(Date.now() - 11 * 60_000).toISOString()}
    WHERE editor_id = (SELECT id FROM editors WHERE email = ${email})`;
}

/** The security screen's "Confirm it is you": the password typed again. */
async function confirmItIsMe(page: Page, password: string) {
  await expect(page.getByRole('heading', { name: 'Confirm it is you' })).toBeVisible();
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Confirm', exact: true }).click();
  await expect(page.getByRole('status')).toContainText('For the next 10 minutes');
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to preview' })).toBeVisible();
}

/** A platform authenticator that holds discoverable credentials and verifies its user. */
async function virtualAuthenticator(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

test('a passkey is added on the security screen, then signs in with no password', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = watchPageErrors(page);
  const { cdp, authenticatorId } = await virtualAuthenticator(context, page);

  await signInWithPassword(page, KEYS);
  await expect(page.getByRole('button', { name: 'Sign out', exact: true })).toBeVisible();
  await hydrated(page, '/preview?security');
  await expect(page.getByText('You have no passkeys yet.')).toBeVisible();
  await page.getByLabel('Name of the new passkey').fill('Work laptop');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByRole('status')).toContainText('Passkey added');
  await expect(page.getByRole('button', { name: 'Remove “Work laptop”' })).toBeVisible();
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]?.isResidentCredential).toBe(true);
  expect(credentials[0]?.rpId).toBe('localhost');

  await signOut(page);
  // No email, no password: the authenticator says whose passkey it is.
  await hydrated(page, '/preview');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('button', { name: 'Sign out', exact: true })).toBeVisible();
  await expect(page).toHaveURL(`${base}/preview`);
  const after = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(after.credentials[0]?.signCount).toBeGreaterThan(0);

  // Listed with when it was last used.
  await hydrated(page, '/preview?security');
  await expect(page.getByText(/last used/)).toBeVisible();

  // A password sign-in of someone with a passkey asks for it as the second step.
  await signOut(page);
  await signInWithPassword(page, KEYS);
  await expect(page.getByRole('heading', { name: 'Confirm it is you' })).toBeVisible();
  await expect(page.getByLabel('Code')).toHaveCount(0);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page.getByRole('button', { name: 'Sign out', exact: true })).toBeVisible();

  // Renamed, then removed: it signs nobody in any more.
  await hydrated(page, '/preview?security');
  await page.getByLabel('Name of this passkey').fill('Home laptop');
  await page.getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByRole('status')).toHaveText('Passkey renamed.');
  await page.getByRole('button', { name: 'Remove “Home laptop”' }).click();
  await expect(page.getByRole('status')).toContainText('Passkey removed');
  await expect(page.getByText('You have no passkeys yet.')).toBeVisible();
  await signOut(page);
  await hydrated(page, '/preview');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('alert')).toContainText('not registered on this site');
  expect(errors()).toEqual([]);
  await context.close();
});

test('the authenticator app: set up from its key, confirmed, then asked for after the password', async ({
  browser,
}) => {
  // At a phone's width: the set-up screen and the second step must work there too.
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const errors = watchPageErrors(page);
  await signInWithPassword(page, APP);
  const menu = page.locator('summary', { hasText: 'Menu' });
  await expect(menu).toBeVisible();
  // Signed in a while ago: the screen asks for the password before it shows its controls.
  await confirmationGoesStale(APP.email);
  await hydrated(page, '/preview?security');
  await expect(page.getByRole('button', { name: 'Set up an authenticator app' })).toHaveCount(0);
  await page.getByLabel('Password').fill('not the passphrase');
  await page.getByRole('button', { name: 'Confirm', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('That is not your password');
  await confirmItIsMe(page, APP.password);
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = ((await page.locator('.totp-secret').textContent()) ?? '').replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.getByLabel('Code from the app').fill('000000');
  await page.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByRole('alert')).toContainText('That code is not the one the app shows');
  await page.getByLabel('Code from the app').fill(totpCode(secret));
  await page.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.locator('.recovery-code-list li')).toHaveCount(10);
  await page.getByRole('link', { name: 'Done' }).click();
  await expect(page.getByText(/On: signing in with your password also asks/)).toBeVisible();

  await hydrated(page, '/preview');
  await menu.click();
  await signOut(page);
  await signInWithPassword(page, APP);
  await expect(page.getByRole('heading', { name: 'Confirm it is you' })).toBeVisible();
  // The next step's code: the one that confirmed the app cannot be used again.
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.getByLabel('Code').fill(totpCode(secret, Date.now() + 30_000));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(`${base}/preview`);
  await expect(menu).toBeVisible();
  expect(errors()).toEqual([]);
  await context.close();
});

/** axe's WCAG 2.2 AA findings on the page as it is, light and dark, at 1280 and 390 px. */
async function axeFindings(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const)
    for (const width of [1280, 390]) {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize({ width, height: 900 });
      const results = await new AxeBuilder({ page }).withTags(WCAG_22_AA).analyze();
      for (const violation of results.violations)
        for (const node of violation.nodes)
          found.push(`${colorScheme} ${width}: ${violation.id}: ${node.target.join(' ')}`);
    }
  await page.setViewportSize({ width: 1280, height: 900 });
  return found;
}

// Markup only: the SQLite half runs it (the sign-ins and the app's set-up are the tests above,
// on both engines), as accessibility.spec.ts runs once (playwright.config.ts).
test(
  'the security screen and the second step pass axe, light and dark, desktop and phone',
  BROWSER_SIDE,
  async ({ browser }) => {
    // Twelve axe scans, two sign-ins, a confirmation and a second step: minutes with cores busy.
    test.setTimeout(240_000);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signInWithPassword(page, AXE);
    await expect(page.getByRole('button', { name: 'Sign out', exact: true })).toBeVisible();
    await confirmationGoesStale(AXE.email);
    await hydrated(page, '/preview?security');
    await expect(page.getByRole('heading', { name: 'Confirm it is you' })).toBeVisible();
    expect(await axeFindings(page)).toEqual([]);
    await confirmItIsMe(page, AXE.password);
    await expect(
      page.getByRole('heading', { name: 'Who must have a second factor' }),
    ).toBeVisible();
    expect(await axeFindings(page)).toEqual([]);
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await expect(
      page.getByRole('img', { name: 'QR code for your authenticator app' }),
    ).toBeVisible();
    expect(await axeFindings(page)).toEqual([]);
    const secret = ((await page.locator('.totp-secret').textContent()) ?? '').replace(/\s/g, '');
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    await page.getByLabel('Code from the app').fill(totpCode(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await expect(page.locator('.recovery-code-list li')).toHaveCount(10);
    expect(await axeFindings(page)).toEqual([]);
    await signOut(page);
    await signInWithPassword(page, AXE);
    await expect(page.getByRole('heading', { name: 'Confirm it is you' })).toBeVisible();
    expect(await axeFindings(page)).toEqual([]);
    await context.close();
  },
);
