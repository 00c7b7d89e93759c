// Review before publish (issue 28, decision 0040) as two people meet it in Chromium, each in a
// browser context of their own: a Contributor writes and submits, an Editor finds it under
// "Waiting for review", reads the word diff and sends it back with a note, the Contributor reads
// the note in their banner, edits and resubmits, the Editor publishes. Screenshots of the banner
// with the note and of the review screen, light and dark, at 1280 and 390 px (each checked by
// axe as well).
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from '@playwright/test';
import { openDatabase } from '../../src/lib/data/db';
import { addEditor } from '../../src/lib/editors/accounts';
import {
  bodyEditor,
  databaseUrl,
  expect,
  test,
  watchPageErrors,
  withoutCoediting,
} from './fixtures';

const WRITER = { email: 'e2e-contributor@example.com', password: 'contributor passphrase 1' };
const NOTE = 'Name your source for the ferry times, please.';
const LOOKS = (['light', 'dark'] as const).flatMap((colorScheme) =>
  [1280, 390].map((width) => ({ colorScheme, width })),
);

async function shoot(page: Page, name: string) {
  for (const { colorScheme, width } of LOOKS) {
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize({ width, height: 900 });
    // Each look is also checked for contrast and the rest of WCAG 2.2 AA, as the other screens.
    const found = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
      .analyze();
    expect(
      found.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`),
      `${name} ${colorScheme} ${width}`,
    ).toEqual([]);
    await page.screenshot({
      path: test.info().outputPath(`${name}-${colorScheme}-${width}.png`),
      fullPage: true,
    });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function contextPage(browser: Browser) {
  const page = await (await browser.newContext()).newPage();
  return { page, problems: watchPageErrors(page) };
}

test('submit → send back with a note → edit and resubmit → publish, in two browsers', async ({
  browser,
  store,
  signIn,
}) => {
  test.setTimeout(120_000);
  const db = await openDatabase(databaseUrl(), { migrate: false, poolSize: 1 });
  const slug = `review-loop-${test.info().workerIndex}-${Date.now().toString(36)}`;
  try {
    await addEditor(db, WRITER.email, WRITER.password, { role: 'contributor' });
    // The Contributor's own page (created_by: them), with a published version to compare with.
    const made = await store.saveDraft({
      slug,
      title: 'Ferry times',
      summary: 'When the boats leave.',
      body: 'The ferry leaves at nine.\n\nTickets on board.',
      expectedVersion: null,
      editor: WRITER.email,
    });
    if (!made.ok) throw new Error('not made');
    await store.publish(slug, { editor: 'e2e-editor@example.com' });
    const current = await store.getPage(slug, { draft: true });
    await store.saveDraft({
      slug,
      pageId: made.pageId,
      title: 'Ferry times',
      summary: 'When the boats leave.',
      body: 'The ferry leaves at half past nine.\n\nTickets on board.',
      expectedVersion: current?.version ?? 0,
      editor: WRITER.email,
    });

    const writer = await contextPage(browser);
    await writer.page.goto('/preview');
    await writer.page.getByLabel('Email').fill(WRITER.email);
    await writer.page.getByLabel('Password').fill(WRITER.password);
    await writer.page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(writer.page.getByRole('navigation', { name: 'Preview' })).toContainText(
      WRITER.email,
    );
    const editor = await contextPage(browser);
    await signIn(editor.page);

    // The Contributor: Submit for review, never Publish or Schedule.
    await writer.page.goto(`/preview/${slug}`);
    const banner = writer.page.getByRole('region', { name: 'Preview' });
    await expect(banner.getByRole('button', { name: 'Submit for review' })).toBeVisible();
    await expect(banner.getByRole('button', { name: /Publish/ })).toHaveCount(0);
    await expect(banner.getByRole('button', { name: 'Schedule' })).toHaveCount(0);
    await banner.getByRole('button', { name: 'Submit for review' }).click();
    await expect(banner.getByText('Submitted for review.')).toBeVisible();
    await expect(banner.getByText('Waiting for review')).toBeVisible();

    // The Editor finds it under the dashboard's filter, opens the review and reads the diff.
    await editor.page.goto('/preview');
    await editor.page.getByLabel('State').selectOption('review');
    await expect(editor.page.getByRole('link', { name: 'Ferry times' }).first()).toBeVisible();
    await editor.page.goto(`/preview/${slug}`);
    await editor.page.getByRole('link', { name: 'Review it' }).click();
    await expect(editor.page.getByRole('heading', { name: 'Review “Ferry times”' })).toBeVisible();
    await expect(editor.page.locator('.diff-text ins').first()).toContainText('half past');
    await shoot(editor.page, 'review-screen');

    // An empty note is refused in words; a note sends it back.
    await editor.page.getByLabel(/Note for the writer/).fill(NOTE);
    await editor.page.getByRole('button', { name: 'Send back' }).click();
    await expect(editor.page.getByText('Sent back. The writer sees your note')).toBeVisible();

    // The Contributor reads the note in their banner.
    await writer.page.goto(`/preview/${slug}`);
    const alert = writer.page.getByRole('alert').filter({ hasText: 'Sent back' });
    await expect(alert).toContainText(NOTE);
    await shoot(writer.page, 'banner-sent-back');

    // They edit (the note leaves the banner) and submit again.
    await writer.page.goto(`/preview/${slug}?edit`);
    await expect(writer.page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    await bodyEditor(writer.page).fill(
      'The ferry leaves at half past nine (harbour timetable, 2026).\n\nTickets on board.',
    );
    await writer.page.getByRole('button', { name: 'Save draft' }).click();
    await expect(writer.page.getByText('Draft saved.')).toBeVisible();
    await expect(writer.page.getByText(NOTE)).toHaveCount(0);
    await writer.page.getByRole('button', { name: 'Submit for review' }).click();
    await expect(writer.page.getByText('Submitted for review.')).toBeVisible();

    // The Editor publishes from the review screen.
    await editor.page.goto(`/preview/${slug}?review`);
    await expect(editor.page.locator('.diff-text ins').first()).toContainText('harbour');
    await editor.page.getByRole('button', { name: 'Publish this draft' }).click();
    await expect(editor.page.getByText('Published. Visitors see this version now.')).toBeVisible();

    // The whole loop is in the history.
    await writer.page.goto(`/preview/${slug}?history`);
    const review = writer.page.getByRole('region', { name: 'Review', exact: true });
    for (const step of ['Submitted for review', 'Sent back', NOTE, 'Published after review'])
      await expect(review).toContainText(step);
    expect([...writer.problems(), ...editor.problems()]).toEqual([]);
    await writer.page.context().close();
    await editor.page.context().close();
  } finally {
    if (await store.getPage(slug, { draft: true })) {
      await store.unpublish(slug);
      await store.discardDraft(slug);
    }
    await db.close();
  }
});

test('a Contributor’s autosave that cancels a reviewer’s schedule says so in the banner', async ({
  browser,
  store,
}) => {
  test.setTimeout(90_000);
  const writer = { email: 'e2e-autosave-writer@example.com', password: 'autosave passphrase 1' };
  const db = await openDatabase(databaseUrl(), { migrate: false, poolSize: 1 });
  const slug = `review-autosave-${test.info().workerIndex}-${Date.now().toString(36)}`;
  try {
    await addEditor(db, writer.email, writer.password, { role: 'contributor' });
    const made = await store.saveDraft({
      slug,
      title: 'Ferry fares',
      summary: '',
      body: 'The reviewed fares.',
      expectedVersion: null,
      editor: writer.email,
    });
    if (!made.ok) throw new Error('not made');
    await store.submitForReview(made.pageId, {
      editor: writer.email,
      expectedVersion: made.version,
    });
    // A reviewer scheduled the text they read.
    await store.schedulePublish(slug, new Date(Date.now() + 86_400_000), {
      editor: 'e2e-editor@example.com',
    });

    const { page, problems } = await contextPage(browser);
    // The form's autosave says so; a page bound to its shared document has its draft written
    // by the server, which does not tell the banner yet (decision record 0051): without it.
    await withoutCoediting(page);
    await page.goto('/preview');
    await page.getByLabel('Email').fill(writer.email);
    await page.getByLabel('Password').fill(writer.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('navigation', { name: 'Preview' })).toContainText(writer.email);
    await page.goto(`/preview/${slug}?edit`);
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    const body = bodyEditor(page);
    await body.fill('The fares, and an unreviewed claim.');
    // The autosave (three seconds after typing stops) cancels the schedule, and the banner says so.
    await expect(
      page.getByText('The scheduled publish was cancelled: it needs review again.'),
    ).toBeVisible({ timeout: 20_000 });
    await body.expectText('The fares, and an unreviewed claim.');
    expect((await store.getPage(slug, { draft: true }))?.bodyMarkdown).toBe(
      'The fares, and an unreviewed claim.',
    );
    // The editor goes on saving from the version it saved (no conflict with itself).
    await body.fill('The fares, an unreviewed claim, and more.');
    await expect
      .poll(async () => (await store.getPage(slug, { draft: true }))?.bodyMarkdown, {
        timeout: 20_000,
      })
      .toBe('The fares, an unreviewed claim, and more.');
    expect(problems()).toEqual([]);
    await page.context().close();
  } finally {
    if (await store.getPage(slug, { draft: true })) await store.discardDraft(slug);
    await db.close();
  }
});
