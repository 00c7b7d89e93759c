// Scheduled publishing as an editor does it in a browser (issue 14): the time is typed in the
// editor's own zone and shown back in it, the dashboard lists it, cancelling takes it back;
// and a visitor sees the page appear on time.
import { expect, test } from './fixtures';

test.use({ timezoneId: 'America/New_York' });

test('"Publish at" is in the editor’s zone: stored in UTC, shown back in local time, cancellable', async ({
  page,
  signIn,
  seedPage,
  store,
}) => {
  const slug = 'e2e-scheduled';
  await seedPage({ slug, title: 'Scheduled page', body: 'SCHEDULED-TEXT', publish: false });
  await signIn(page, `/preview/${slug}`);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  // One time zone on the screen, the editor's, named once (issue 26).
  await expect(page.locator('.time-zone')).toHaveText('Times in America/New_York');
  const input = page.getByLabel(/^Publish at/);
  // Offered: an hour from now, in local time.
  await expect(input).toHaveValue(/^\d{4}-\d\d-\d\dT\d\d:\d\d$/);
  await input.fill('2031-06-01T09:30');
  await page.getByRole('button', { name: 'Schedule' }).click();
  await expect(page.getByRole('status')).toContainText('Scheduled.');
  // 09:30 in New York in June is 13:30 UTC (daylight saving time).
  const listed = (await store.listAll()).find((entry) => entry.slug === slug);
  expect(listed?.publishAt).toBe('2031-06-01T13:30:00.000Z');
  await expect(page.locator('form.schedule')).toContainText(
    'Will be published Jun 1, 2031, 09:30 AM, on behalf of e2e-editor@example.com.',
  );

  await page.goto('/preview?state=scheduled');
  const row = page.getByRole('row', { name: /Scheduled page/ });
  await expect(row).toContainText('To be published Jun 1, 2031, 09:30 AM');
  await expect(page.locator('.time-zone')).toHaveText('Times in America/New_York');

  await page.goto(`/preview/${slug}`);
  await page.getByRole('button', { name: 'Cancel schedule' }).click();
  await expect(page.getByRole('status')).toContainText('Schedule cancelled.');
  expect((await store.listAll()).find((entry) => entry.slug === slug)?.publishAt).toBeNull();
});

test('a time in the past is refused in the form, with the time kept', async ({
  page,
  signIn,
  seedPage,
}) => {
  const slug = 'e2e-scheduled-past';
  await seedPage({ slug, title: 'Past page', body: 'PAST-TEXT', publish: false });
  await signIn(page, `/preview/${slug}`);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.getByLabel(/Publish at/).fill('2020-01-01T10:00');
  await page.getByRole('button', { name: 'Schedule' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'That time has passed: choose a time in the future.',
  );
  await expect(page.getByLabel(/Publish at/)).toHaveValue('2020-01-01T10:00');
});

test('a visitor sees a scheduled page appear at its time, not before', async ({
  page,
  seedPage,
  store,
}) => {
  const slug = 'e2e-goes-live';
  await seedPage({ slug, title: 'Goes live', body: 'GOES-LIVE-TEXT', publish: false });
  const due = new Date(Date.now() + 3_000);
  await store.schedulePublish(slug, due, { editor: 'e2e-editor@example.com' });
  const before = await page.goto(`/${slug}`);
  expect(before?.status()).toBe(404);
  await expect(page.locator('body')).not.toContainText('GOES-LIVE-TEXT');
  await expect
    .poll(
      async () => {
        const response = await page.goto(`/${slug}`);
        return response?.status();
      },
      { timeout: 10_000, intervals: [250] },
    )
    .toBe(200);
  expect(Date.now()).toBeGreaterThanOrEqual(due.getTime());
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Goes live');
});

test('a schedule that could not publish is said on the page, in local time, until dismissed', async ({
  page,
  signIn,
  seedPage,
  store,
}) => {
  const slug = 'e2e-missed';
  await seedPage({ slug, title: 'Missed page', body: 'MISSED-TEXT', publish: false });
  const due = new Date(Date.now() + 1_500);
  await store.schedulePublish(slug, due, { editor: 'e2e-editor@example.com' });
  // After scheduling, the draft comes to name an image the library never had.
  const missing = `/media/${'d'.repeat(32)}`;
  await store.putPage({ slug, title: 'Missed page', summary: '', body: `![gone](${missing})` });
  await expect
    .poll(
      async () => {
        // The server's own check or this one: whichever claims it, the schedule is missed.
        await store.publishDue();
        const listed = (await store.listAll()).find((entry) => entry.slug === slug);
        return listed?.missedPublishAt ?? null;
      },
      { timeout: 10_000, intervals: [250] },
    )
    .toBe(due.toISOString());

  await signIn(page, '/preview');
  await expect(page.getByRole('row', { name: /Missed page/ })).toContainText(
    'Not published as scheduled for',
  );
  await page.goto(`/preview/${slug}`);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const notice = page.locator('.missed-schedule');
  await expect(notice).toContainText('did not happen.');
  await expect(notice).toContainText('on behalf of e2e-editor@example.com');
  await expect(notice).toContainText(missing);
  // In the editor's zone once in the browser, as the schedule was typed; the zone is named
  // once, in the preview bar, not beside each time (issue 26).
  const inNewYork = new Intl.DateTimeFormat(undefined, {
    timeZone: 'America/New_York',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).format(due);
  await expect(notice.locator('time')).toHaveText(inNewYork);
  await expect(page.locator('.time-zone')).toHaveText('Times in America/New_York');
  // On a phone the address breaks inside the box: the page does not scroll sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.getByRole('status')).toContainText('Notice dismissed.');
  await expect(page.locator('.missed-schedule')).toHaveCount(0);
  expect((await page.request.get(`/${slug}`)).status()).toBe(404);
});
