// Shared e2e fixtures: direct access to the server's database (beside the server, as another
// process would), an editor sign-in, and a guard that fails a test when a page logs an error
// it did not expect.
import { test as base, expect, type Page } from '@playwright/test';
import { type ContentStore, createContentStore } from '../../src/lib/content/content';
import { openDatabase } from '../../src/lib/data/db';
import { addEditor } from '../../src/lib/editors/accounts';
import { PAGE_DATA_PARAM } from '../../src/lib/http/page-data-address';

export const EDITOR = { email: 'e2e-editor@example.com', password: 'e2e correct horse battery' };

export function databaseUrl(): string {
  const url = process.env.E2E_DATABASE_URL;
  if (!url) throw new Error('E2E_DATABASE_URL is not set (tests/e2e/global-setup.ts sets it)');
  return url;
}

// Chromium logs every 4xx document or fetch ("Failed to load resource: … status of 404"): that
// is the browser reporting an HTTP status a test asked for, not a script failing.
const HTTP_STATUS_NOTE = /^Failed to load resource: the server responded with a status of 4\d\d/;

const allowances = new WeakMap<Page, RegExp[]>();

/** Errors this page is expected to log (a test error button, a blocked script…). */
export function allowPageErrors(page: Page, ...patterns: RegExp[]): void {
  allowances.set(page, [...(allowances.get(page) ?? []), ...patterns]);
}

/** Starts collecting the page's unexpected console errors and uncaught exceptions. */
export function watchPageErrors(page: Page): () => string[] {
  const problems: string[] = [];
  const unexpected = (text: string) =>
    !HTTP_STATUS_NOTE.test(text) && !(allowances.get(page) ?? []).some((re) => re.test(text));
  page.on('console', (message) => {
    if (message.type() === 'error' && unexpected(message.text()))
      problems.push(`console.error: ${message.text()}`);
  });
  page.on('pageerror', (error) => {
    if (unexpected(`${error.name}: ${error.message}`))
      problems.push(`uncaught: ${error.name}: ${error.message}`);
  });
  return () => [...problems];
}

type Fixtures = {
  store: ContentStore;
  seedPage: (page: {
    slug: string;
    title: string;
    body: string;
    publish?: boolean;
  }) => Promise<void>;
  signIn: (page: Page) => Promise<void>;
};

export const test = base.extend<Fixtures>({
  page: async ({ page }, use) => {
    const problems = watchPageErrors(page);
    await use(page);
    expect(problems(), 'errors the page logged').toEqual([]);
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this pattern
  store: async ({}, use) => {
    const db = await openDatabase(databaseUrl(), { migrate: false, poolSize: 2 });
    await use(createContentStore(db));
    await db.close();
  },
  seedPage: async ({ store }, use) => {
    const created: string[] = [];
    await use(async ({ slug, title, body, publish = true }) => {
      await store.putPage({ slug, title, summary: `${title} summary`, body }, { publish });
      created.push(slug);
    });
    // Clean up what the test made, whatever it renamed the page to.
    for (const slug of created) {
      for (const candidate of [
        slug,
        ...(await store.listAll()).map((p) => p.slug).filter((s) => s.startsWith(slug)),
      ]) {
        if (await store.getPage(candidate, { draft: true })) {
          await store.unpublish(candidate);
          await store.discardDraft(candidate);
        }
      }
    }
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this pattern
  signIn: async ({}, use) => {
    const db = await openDatabase(databaseUrl(), { migrate: false, poolSize: 1 });
    await addEditor(db, EDITOR.email, EDITOR.password);
    await db.close();
    await use(async (page: Page) => {
      await page.goto('/preview');
      await page.getByLabel('Email').fill(EDITOR.email);
      await page.getByLabel('Password').fill(EDITOR.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByRole('navigation', { name: 'Preview' })).toContainText(EDITOR.email);
    });
  },
});

export { expect };

/** A page-data request's URL: the page's own address with the cache-busting parameter. */
export const PAGE_DATA_URL = new RegExp(`[?&]${PAGE_DATA_PARAM}=`);

/** The page a page-data request asks for (`/about` for `/about?_rsc=…`), or null. */
export function pageDataPathOf(url: string): string | null {
  const parsed = new URL(url);
  return parsed.searchParams.has(PAGE_DATA_PARAM) ? parsed.pathname : null;
}
