import { expect, test } from './fixtures';

const nav = (page: import('@playwright/test').Page) =>
  page.getByRole('navigation', { name: 'Site' });

async function hydrated(page: import('@playwright/test').Page) {
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
}

test('with 20 links in view, never more than five prefetches in flight, and all are fetched', async ({
  page,
  seedPage,
}) => {
  // The demo content has six header links; published pages join the header, so add sixteen.
  for (let i = 1; i <= 16; i++) {
    const n = String(i).padStart(2, '0');
    await seedPage({ slug: `e2e-nav-${n}`, title: `Nav ${n}`, body: `Nav page ${n}.` });
  }
  let inFlight = 0;
  let maxInFlight = 0;
  const fetched = new Set<string>();
  await page.route(/\/RSC\/R\/.+\.txt/, async (route) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise((resolve) => setTimeout(resolve, 400));
    fetched.add(new URL(route.request().url()).pathname);
    await route.continue().catch(() => undefined);
    inFlight -= 1;
  });
  // Tall enough that every header link is in view however the list wraps.
  await page.setViewportSize({ width: 1280, height: 1600 });
  await page.goto('/');
  await hydrated(page);
  const targets = await nav(page)
    .locator('li a')
    .evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
  expect(targets.length).toBeGreaterThanOrEqual(20);
  const expected = targets.map((path) => `/RSC/R${path}.txt`);
  await expect
    .poll(() => expected.filter((path) => !fetched.has(path)), { timeout: 15_000 })
    .toEqual([]);
  expect(maxInFlight).toBeLessThanOrEqual(5);
  // The queue really was full at some point, or the limit was never tested.
  expect(maxInFlight).toBe(5);
});

test('links below the fold are not prefetched until they come within 200 px of the viewport', async ({
  page,
}) => {
  const fetched: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/RSC/R/')) fetched.push(new URL(request.url()).pathname);
  });
  await page.setViewportSize({ width: 1000, height: 600 });
  // Push the site navigation far below the fold, before anything observes it.
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      const style = document.createElement('style');
      style.textContent = '.site-header { margin-top: 3000px; }';
      document.head.append(style);
    });
  });
  await page.goto('/contact');
  await hydrated(page);
  await page.waitForTimeout(800);
  expect(fetched).toEqual([]);
  const top = await nav(page).evaluate(
    (element) => element.getBoundingClientRect().top + window.scrollY,
  );
  // 400 px below the bottom edge: still outside the 200 px margin.
  await page.evaluate((y) => window.scrollTo(0, y), top - 600 - 400);
  await page.waitForTimeout(800);
  expect(fetched).toEqual([]);
  // 150 px below the bottom edge: within the margin.
  await page.evaluate((y) => window.scrollTo(0, y), top - 600 - 150);
  await expect.poll(() => fetched.length, { timeout: 5_000 }).toBeGreaterThan(0);
});

test('a prefetched static page navigates with no new request within 300 s, and refetches after', async ({
  page,
}) => {
  await page.clock.install();
  const requests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/RSC/R/about.txt')) requests.push(request.url());
  });
  await page.goto('/contact');
  await hydrated(page);
  await expect.poll(() => requests.length, { timeout: 5_000 }).toBe(1);
  await page.clock.runFor(60_000);
  await nav(page).getByRole('link', { name: 'About' }).click();
  await expect(page.locator('main h1')).toHaveText('About');
  expect(requests).toHaveLength(1);
  // After the stale time, showing interest again (hover) fetches it anew.
  await nav(page).getByRole('link', { name: 'Contact' }).click();
  await expect(page.locator('main h1')).toHaveText('Contact');
  await page.clock.runFor(120_000);
  await nav(page).getByRole('link', { name: 'About' }).hover();
  await page.waitForTimeout(300);
  expect(requests).toHaveLength(1);
  await page.clock.runFor(181_000);
  await page.mouse.move(0, 400);
  await nav(page).getByRole('link', { name: 'About' }).hover();
  await expect.poll(() => requests.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
});

for (const failure of ['slow', 'error', 'abort', 'garbage'] as const) {
  const what = {
    slow: 'takes 5 s',
    error: 'fails with 500',
    abort: 'is aborted',
    garbage: 'does not parse',
  }[failure];
  test(`a navigation whose page data ${what} becomes a full page load of the target`, async ({
    page,
  }) => {
    // Saver mode turns prefetching off, so the click makes the (tampered) navigation request.
    await page.addInitScript(() =>
      Object.defineProperty(navigator, 'connection', { value: { saveData: true } }),
    );
    await page.route(/\/RSC\/R\/getting-started\.txt/, async (route) => {
      if (failure === 'slow') {
        await new Promise((resolve) => setTimeout(resolve, 5000));
        await route.continue().catch(() => undefined);
      } else if (failure === 'error') {
        await route.fulfill({ status: 500, body: 'boom' });
      } else if (failure === 'garbage') {
        await route.fulfill({
          status: 200,
          contentType: 'text/x-component',
          body: '\u0000not a payload{{',
        });
      } else {
        await route.abort();
      }
    });
    await page.goto('/');
    await hydrated(page);
    const started = Date.now();
    const documentLoad = page.waitForRequest(
      (request) =>
        request.resourceType() === 'document' && request.url().endsWith('/getting-started'),
      { timeout: 8_000 },
    );
    await nav(page).getByRole('link', { name: 'Getting started' }).click({ noWaitAfter: true });
    await documentLoad;
    const elapsed = Date.now() - started;
    if (failure === 'slow') {
      expect(elapsed).toBeGreaterThanOrEqual(3_700);
      expect(elapsed).toBeLessThan(5_000);
    } else {
      expect(elapsed).toBeLessThan(3_000);
    }
    await expect(page).toHaveURL(/\/getting-started$/);
    await expect(page.locator('main h1')).toHaveText(/Getting started/);
  });
}

for (const failure of ['slow', 'error'] as const) {
  test(`a navigation that adopts a prefetch still in flight which ${failure === 'slow' ? 'takes 8 s' : 'then fails with 500'} becomes a full page load`, async ({
    page,
  }) => {
    // Waku's router reuses an in-flight prefetch instead of making its own request: the click
    // must give that request the navigation's deadline and failure handling.
    let prefetches = 0;
    await page.route(/\/RSC\/R\/getting-started\.txt/, async (route) => {
      prefetches += 1;
      await new Promise((resolve) => setTimeout(resolve, failure === 'slow' ? 8_000 : 1_000));
      if (failure === 'slow') await route.continue().catch(() => undefined);
      else await route.fulfill({ status: 500, body: 'boom' }).catch(() => undefined);
    });
    await page.goto('/');
    await hydrated(page);
    await expect.poll(() => prefetches).toBe(1);
    const started = Date.now();
    const documentLoad = page.waitForRequest(
      (request) =>
        request.resourceType() === 'document' && request.url().endsWith('/getting-started'),
      { timeout: 8_000 },
    );
    await nav(page).getByRole('link', { name: 'Getting started' }).click({ noWaitAfter: true });
    await documentLoad;
    const elapsed = Date.now() - started;
    // No second page-data request: the navigation waited on the prefetch.
    expect(prefetches).toBe(1);
    if (failure === 'slow') {
      expect(elapsed).toBeGreaterThanOrEqual(3_700);
      expect(elapsed).toBeLessThan(5_000);
    } else {
      expect(elapsed).toBeLessThan(3_000);
    }
    await expect(page).toHaveURL(/\/getting-started$/);
    await expect(page.locator('main h1')).toHaveText(/Getting started/);
  });
}

test("an action is POSTed to the page's own address, not to Waku's action path", async ({
  page,
  signIn,
}) => {
  const posts: { path: string; action: string | undefined }[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST')
      posts.push({
        path: new URL(request.url()).pathname,
        action: request.headers()['x-folio-action'],
      });
  });
  await signIn(page);
  await page.goto('/preview/about');
  await hydrated(page);
  posts.length = 0;
  await page.getByRole('button', { name: 'Create share link' }).click();
  await expect(page.getByLabel('Share link')).toBeVisible();
  expect(posts).toHaveLength(1);
  expect(posts[0]?.path).toBe('/preview/about');
  expect(posts[0]?.action).toMatch(/^\/RSC\/F\/[^/]+\/createShareLink\.txt$/);
});
