// Shared e2e fixtures: direct access to the server's database (a file in WAL mode, so the
// test process can read and write beside the server) and an editor sign-in.
import { test as base, expect, type Page } from '@playwright/test';
import { type ContentStore, createContentStore } from '../../src/lib/content';
import { openDatabase } from '../../src/lib/db';
import { addEditor } from '../../src/lib/editors';

export const EDITOR = { email: 'e2e-editor@example.com', password: 'e2e correct horse battery' };

function databaseUrl(): string {
  const path = process.env.E2E_DATABASE_PATH;
  if (!path) throw new Error('E2E_DATABASE_PATH is not set (playwright.config.ts sets it)');
  return `sqlite:${path}`;
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
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this pattern
  store: async ({}, use) => {
    const db = openDatabase(databaseUrl());
    await use(createContentStore(db));
    db.close();
  },
  seedPage: async ({ store }, use) => {
    const created: string[] = [];
    await use(async ({ slug, title, body, publish = true }) => {
      store.putPage({ slug, title, summary: `${title} summary`, body }, { publish });
      created.push(slug);
    });
    // Clean up what the test made, whatever it renamed the page to.
    for (const slug of created) {
      for (const candidate of [
        slug,
        ...store
          .listAll()
          .map((p) => p.slug)
          .filter((s) => s.startsWith(slug)),
      ]) {
        if (store.getPage(candidate, { draft: true })) {
          store.unpublish(candidate);
          store.discardDraft(candidate);
        }
      }
    }
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this pattern
  signIn: async ({}, use) => {
    const db = openDatabase(databaseUrl());
    await addEditor(db, EDITOR.email, EDITOR.password);
    db.close();
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
