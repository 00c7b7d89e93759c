// `bun scripts/screenshots.ts [out-dir]`: the README's screenshots of the editor, taken from
// the server started as the README starts it, on a throw-away copy of the demo content, in
// Chromium at 1280 and 390 px wide. Re-run after changing what editors see.
import { chromium, type Page } from '@playwright/test';
import { openDatabase } from '../src/lib/data/db';
import { addEditor } from '../src/lib/editors/accounts';
import { damagedDatabase, seededDatabase, startFolio, withStore } from '../tests/harness';

const out = Bun.argv[2] ?? 'docs/screenshots';
const EDITOR = { email: 'editor@example.com', password: 'a screenshot passphrase' };
const database = await seededDatabase();
const folio = await startFolio({ database });
const db = await openDatabase(folio.databaseUrl, { migrate: false, poolSize: 1 });
await addEditor(db, EDITOR.email, EDITOR.password);
await db.close();
// A page with some history, for the history screen.
await withStore(folio, async (store) => {
  const base = { slug: 'about', title: 'About', summary: 'Who makes Folio and why.' };
  const about = await store.getPage('about', { draft: false });
  const body = about?.bodyMarkdown ?? '';
  await store.putPage(
    { ...base, body: `${body}\n\nWe answer every letter.` },
    { publish: true, editor: EDITOR.email },
  );
  await store.putPage(
    { ...base, body: `${body}\n\nWe answer every letter within a week.` },
    { publish: true, editor: EDITOR.email },
  );
});

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
try {
  for (const width of [1280, 390]) {
    const context = await browser.newContext({
      viewport: { width, height: width > 500 ? 860 : 844 },
      deviceScaleFactor: 1,
      // The scheduled banner shows the editor's own zone: one fixed here, for stable pictures.
      timezoneId: 'Europe/Berlin',
    });
    const page = await context.newPage();
    const shot = async (name: string, fullPage = false) =>
      page.screenshot({ path: `${out}/${name}-${width}.png`, fullPage });
    await page.goto(`${folio.url}/preview`);
    await page.getByLabel('Email').fill(EDITOR.email);
    await page.getByLabel('Password').fill(EDITOR.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Pages' }).waitFor();
    await shot('dashboard');
    await page.goto(`${folio.url}/preview/getting-started?edit`);
    await hydrated(page);
    const body = page.getByLabel('Body (Markdown)');
    await body.focus();
    await page.keyboard.press('Control+Home');
    await page.keyboard.type('## A heading typed just now\n\n');
    await page.getByText(/^Saved \d/).waitFor({ timeout: 10_000 });
    await page
      .locator('.live-preview h2', { hasText: 'A heading typed just now' })
      .first()
      .waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot('editor');
    await page.goto(`${folio.url}/preview/about?history`);
    await page.locator('.history-list > li').first().getByRole('link', { name: 'Changes' }).click();
    await page.getByRole('region', { name: 'Compared', exact: true }).waitFor();
    await shot('history', true);
    await page.goto(`${folio.url}/preview?settings`);
    await shot('settings', true);
    await page.goto(`${folio.url}/about`);
    await shot('site');
    // A page scheduled to publish: the banner says when, in the editor's time zone.
    await page.goto(`${folio.url}/preview/upcoming-feature`);
    await hydrated(page);
    await page.getByLabel(/Publish at/).fill('2031-06-01T09:30');
    await page.getByRole('button', { name: 'Schedule' }).click();
    await page.getByRole('status').waitFor();
    await shot('scheduled');
    await page.getByRole('button', { name: 'Cancel schedule' }).click();
    await page.getByRole('status').waitFor();
    await context.close();
    // The public theme, light and dark: a page with code, and the 404.
    for (const colorScheme of ['light', 'dark'] as const) {
      const reader = await readerContext(width, colorScheme);
      const visitor = await reader.newPage();
      await visitor.goto(`${folio.url}/writing-in-markdown`);
      await visitor.locator('pre.shiki').scrollIntoViewIfNeeded();
      await visitor.screenshot({ path: `${out}/code-${colorScheme}-${width}.png` });
      await visitor.goto(`${folio.url}/no-such-page`);
      await visitor.screenshot({ path: `${out}/404-${colorScheme}-${width}.png` });
      await reader.close();
    }
  }
  // The server-error page, from a server whose database lost the table pages are read from.
  const broken = await startFolio({ database: await damagedDatabase() });
  try {
    for (const width of [1280, 390])
      for (const colorScheme of ['light', 'dark'] as const) {
        const reader = await readerContext(width, colorScheme);
        const visitor = await reader.newPage();
        await visitor.goto(`${broken.url}/about`);
        await visitor.screenshot({ path: `${out}/error-${colorScheme}-${width}.png` });
        await reader.close();
      }
  } finally {
    await broken.stop();
  }
} finally {
  await browser.close();
  await folio.stop();
}
console.log(`screenshots in ${out}`);

async function hydrated(page: Page) {
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
}

/** A visitor's browser at `width` (a desktop's or a phone's height) in one colour scheme. */
function readerContext(width: number, colorScheme: 'light' | 'dark') {
  return browser.newContext({
    viewport: { width, height: width > 500 ? 860 : 844 },
    deviceScaleFactor: 1,
    colorScheme,
  });
}
