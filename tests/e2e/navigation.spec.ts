import { NAVIGATION_MAX } from '../../src/lib/content/content';
import { ROUTE_LOAD_TIMEOUT_MS } from '../../src/lib/navigation/constants';
import { allowPageErrors, expect, PAGE_DATA_URL, pageDataPathOf, test } from './fixtures';

const nav = (page: import('@playwright/test').Page) =>
  page.getByRole('navigation', { name: 'Site' });

async function hydrated(page: import('@playwright/test').Page) {
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
}

/** Makes the page record every page-data fetch at the moment it is called. */
async function recordPageDataFetches(page: import('@playwright/test').Page) {
  await page.addInitScript(() => {
    const calls: string[] = [];
    (window as unknown as { __pageDataFetches: string[] }).__pageDataFetches = calls;
    const original = window.fetch;
    window.fetch = Object.assign((input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input), location.href);
      // Page data: at the page's own address, with the cache-busting parameter.
      if (url.searchParams.has('_rsc')) calls.push(url.pathname);
      return original(input, init);
    }, original);
  });
}

/**
 * The page-data fetches made so far, read after two rendered frames: by then the
 * IntersectionObserver has reported the current scroll position, and any prefetch it started
 * has called fetch.
 */
async function pageDataFetchesAfterTwoFrames(page: import('@playwright/test').Page) {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve) =>
        requestAnimationFrame(() =>
          requestAnimationFrame(() =>
            setTimeout(() =>
              resolve([
                ...(window as unknown as { __pageDataFetches: string[] }).__pageDataFetches,
              ]),
            ),
          ),
        ),
      ),
  );
}

/** /contact, hydrated, in a 1000 × 600 viewport with the site navigation pushed far below the
 * fold before anything observes it, recording page-data fetches: none made yet. */
async function contactWithNavigationBelowTheFold(page: import('@playwright/test').Page) {
  await recordPageDataFetches(page);
  await page.setViewportSize({ width: 1000, height: 600 });
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      const style = document.createElement('style');
      style.textContent = '.site-header { margin-top: 3000px; }';
      document.head.append(style);
    });
  });
  await page.goto('/contact');
  await hydrated(page);
  expect(await pageDataFetchesAfterTwoFrames(page)).toEqual([]);
}

/** Does `act` to the header's link to /about, and checks the About page came with one
 * page-data request for it. */
async function aboutAskedForOnce(
  page: import('@playwright/test').Page,
  act: (link: HTMLAnchorElement) => void,
) {
  await nav(page).locator(':scope > ul a[href="/about"]').evaluate(act);
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('About');
  // A late prefetch would be the observer's report (a frame), its queue's task, then the
  // fetch: the first read lets that chain run, the second reads what it did.
  await pageDataFetchesAfterTwoFrames(page);
  const fetches = await pageDataFetchesAfterTwoFrames(page);
  expect(fetches.filter((path) => path === '/about')).toEqual(['/about']);
}

test('with 20 links in view, never more than five prefetches in flight, and all are fetched', async ({
  page,
  seedPage,
  store,
}) => {
  // The demo content has six published pages besides home; sixteen more are added, and the
  // header is set to twenty of them (the most it takes: NAVIGATION_MAX).
  const settings = await store.getSiteSettings();
  try {
    await manyLinksInView(page, seedPage, async () => {
      const ids = (await store.listAll())
        .filter((listed) => listed.state !== 'draft-only' && listed.slug !== 'home')
        .map((listed) => listed.id)
        .slice(0, NAVIGATION_MAX);
      await store.saveSiteSettings({ ...settings, navigation: ids });
    });
  } finally {
    await store.saveSiteSettings(settings);
  }
});

async function manyLinksInView(
  page: import('@playwright/test').Page,
  seedPage: (page: { slug: string; title: string; body: string }) => Promise<void>,
  chooseHeader: () => Promise<void>,
) {
  for (let i = 1; i <= 16; i++) {
    const n = String(i).padStart(2, '0');
    await seedPage({ slug: `e2e-nav-${n}`, title: `Nav ${n}`, body: `Nav page ${n}.` });
  }
  await chooseHeader();
  let inFlight = 0;
  let maxInFlight = 0;
  const fetched = new Set<string>();
  await page.route(PAGE_DATA_URL, async (route) => {
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
  // Twenty links are more than the header's row holds (issue 27): the rest are under "More",
  // opened here so that all twenty are in view.
  const more = nav(page).locator('.nav-more summary');
  if ((await more.count()) > 0) await more.click();
  // The header's row of links and "More"'s (a phone's folded menu repeats them as plain links).
  const targets = await nav(page)
    .locator(':scope > ul li a, .nav-more li a')
    .evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
  expect(targets.length).toBeGreaterThanOrEqual(20);
  const expected = targets;
  await expect
    .poll(() => expected.filter((path) => !fetched.has(path)), { timeout: 15_000 })
    .toEqual([]);
  expect(maxInFlight).toBeLessThanOrEqual(5);
  // The queue really was full at some point, or the limit was never tested.
  expect(maxInFlight).toBe(5);
}

test('links below the fold are not prefetched until they come within 200 px of the viewport', async ({
  page,
}) => {
  await contactWithNavigationBelowTheFold(page);
  const top = await nav(page).evaluate(
    (element) => element.getBoundingClientRect().top + window.scrollY,
  );
  // 400 px below the bottom edge: still outside the 200 px margin.
  await page.evaluate((y) => window.scrollTo(0, y), top - 600 - 400);
  expect(await pageDataFetchesAfterTwoFrames(page)).toEqual([]);
  // 150 px below the bottom edge: within the margin.
  await page.evaluate((y) => window.scrollTo(0, y), top - 600 - 150);
  await expect
    .poll(async () => (await pageDataFetchesAfterTwoFrames(page)).length, { timeout: 5_000 })
    .toBeGreaterThan(0);
});

test('a link clicked before its prefetch has started asks for the page once (hostile pass)', async ({
  page,
}) => {
  // Each prefetch starts in a task of its own. A click in between used to make the
  // navigation's request and then the prefetch's: two requests for one page.
  await contactWithNavigationBelowTheFold(page);
  // Hover (which queues the prefetch) and click in one task, before the prefetch's own.
  await aboutAskedForOnce(page, (link) => {
    link.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
    link.click();
  });
});

test('a link that comes into view as it is clicked is not prefetched after the click (hostile pass)', async ({
  page,
}) => {
  // During hydration a click can come before the link's viewport prefetch is queued; queued
  // after the navigation had made its request, the prefetch was a second one.
  // Slow page data, so the navigation is still under way when the prefetch would start.
  await page.route(PAGE_DATA_URL, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await route.continue().catch(() => undefined);
  });
  await contactWithNavigationBelowTheFold(page);
  // Into view and clicked in one task: the observer reports it only after the click.
  await aboutAskedForOnce(page, (link) => {
    link.scrollIntoView();
    link.click();
  });
});

test('a prefetched static page navigates with no new request within 300 s, and refetches after', async ({
  page,
}) => {
  await page.clock.install();
  await recordPageDataFetches(page);
  const requests: string[] = [];
  page.on('request', (request) => {
    if (pageDataPathOf(request.url()) === '/about') requests.push(request.url());
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
  // The page's own clock moves on (timers the hover set run); the page has called fetch for
  // /about's data once only (read in the page, where the call happens).
  await page.clock.runFor(300);
  const aboutFetches = await page.evaluate(
    () =>
      (window as unknown as { __pageDataFetches: string[] }).__pageDataFetches.filter(
        (path) => path === '/about',
      ).length,
  );
  expect(aboutFetches).toBe(1);
  await page.clock.runFor(181_000);
  await page.mouse.move(0, 400);
  await nav(page).getByRole('link', { name: 'About' }).hover();
  await expect.poll(() => requests.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
});

for (const failure of ['slow', 'error', 'abort', 'garbage'] as const) {
  const what = {
    slow: 'is held past the deadline',
    error: 'fails with 500',
    abort: 'is aborted',
    garbage: 'does not parse',
  }[failure];
  test(`a navigation whose page data ${what} becomes a full page load of the target`, async ({
    page,
  }) => {
    // The failure this test makes is logged by the browser; nothing else may be.
    allowPageErrors(page, /status of 500 \(Internal Server Error\)|net::ERR_FAILED/);
    // Saver mode turns prefetching off, so the click makes the (tampered) navigation request.
    await page.addInitScript(() =>
      Object.defineProperty(navigator, 'connection', { value: { saveData: true } }),
    );
    // A slow answer is held until the page was loaded in full (or 20 s): the load cannot have
    // been the data arriving, whatever the machine's load.
    let left = () => {};
    const pageLeft = new Promise<void>((resolve) => {
      left = resolve;
    });
    let answered = false;
    await page.route(/\/getting-started\?(.*&)?_rsc=/, async (route) => {
      if (failure === 'slow') {
        await Promise.race([pageLeft, new Promise((resolve) => setTimeout(resolve, 20_000))]);
        answered = true;
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
      { timeout: 15_000 },
    );
    await nav(page).getByRole('link', { name: 'Getting started' }).click({ noWaitAfter: true });
    await documentLoad;
    const elapsed = Date.now() - started;
    const answeredFirst = answered;
    left();
    // A slow answer is given up at the deadline (ROUTE_LOAD_TIMEOUT_MS: never sooner, and
    // while the data was still held); a failure leaves at once, before the deadline could have
    // been what left.
    if (failure === 'slow') {
      expect(elapsed).toBeGreaterThanOrEqual(ROUTE_LOAD_TIMEOUT_MS - 100);
      expect(answeredFirst).toBe(false);
    } else {
      expect(elapsed).toBeLessThan(ROUTE_LOAD_TIMEOUT_MS);
    }
    await expect(page).toHaveURL(/\/getting-started$/);
    await expect(page.locator('main h1')).toHaveText(/Getting started/);
  });
}

for (const failure of ['slow', 'error'] as const) {
  test(`a navigation that adopts a prefetch still in flight which ${failure === 'slow' ? 'takes 8 s' : 'then fails with 500'} becomes a full page load`, async ({
    page,
  }) => {
    allowPageErrors(page, /status of 500 \(Internal Server Error\)/);
    // Waku's router reuses an in-flight prefetch instead of making its own request: the click
    // must give that request the navigation's deadline and failure handling.
    let prefetches = 0;
    await page.route(/\/getting-started\?(.*&)?_rsc=/, async (route) => {
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
    // As above, loose where a busy machine adds: the slow prefetch is given up at the deadline
    // (never sooner, and before its data came at 8 s); the failing one leaves when it fails.
    if (failure === 'slow') {
      expect(elapsed).toBeGreaterThanOrEqual(ROUTE_LOAD_TIMEOUT_MS - 100);
      expect(elapsed).toBeLessThan(8_000);
    } else {
      expect(elapsed).toBeLessThan(ROUTE_LOAD_TIMEOUT_MS);
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
  await signIn(page, '/preview/about');
  await hydrated(page);
  posts.length = 0;
  await page.getByRole('button', { name: 'Create share link' }).click();
  await expect(page.getByLabel('Share link', { exact: true })).toBeVisible();
  expect(posts).toHaveLength(1);
  expect(posts[0]?.path).toBe('/preview/about');
  expect(posts[0]?.action).toMatch(/^\/RSC\/F\/[^/]+\/createShareLink\.txt$/);
});

test('on a second load of a page, each link is prefetched once and nothing is left pending', async ({
  page,
}) => {
  // The browser's own network log (DevTools protocol): it shows requests the page never made
  // itself, like a cache's background revalidation.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const sent = new Map<string, string>();
  const open = new Set<string>();
  cdp.on('Network.requestWillBeSent', (event) => {
    const url = new URL(event.request.url);
    if (pageDataPathOf(url.href) === null) return;
    sent.set(event.requestId, url.pathname);
    open.add(event.requestId);
  });
  cdp.on('Network.loadingFinished', (event) => open.delete(event.requestId));
  cdp.on('Network.loadingFailed', (event) => open.delete(event.requestId));
  const otherLinks = async () =>
    nav(page)
      .locator('a')
      .evaluateAll(
        (links) =>
          links.filter((a) => (a as HTMLAnchorElement).pathname !== location.pathname).length,
      );

  for (const load of ['first', 'second']) {
    sent.clear();
    if (load === 'first') await page.goto('/contact');
    else await page.reload();
    await hydrated(page);
    const expected = await otherLinks();
    await expect
      .poll(() => sent.size, { message: `${load} load` })
      .toBeGreaterThanOrEqual(expected);
    // Every request finishes: none waits on the browser's cache for half a minute.
    await expect.poll(() => open.size, { timeout: 5_000, message: `${load} load` }).toBe(0);
    const paths = [...sent.values()];
    expect(paths, `${load} load`).toHaveLength(expected);
    expect(new Set(paths).size, `${load} load: one request per link`).toBe(paths.length);
  }
});

// The original specification's page-data address (issue 15): a session of prefetches,
// navigations, Back and Forward, public and preview, asks nothing of Waku's /RSC/ addresses.
test("page data is asked for at the page's own address with the flag, never at /RSC/R/", async ({
  page,
  signIn,
}) => {
  const wakuAddresses: string[] = [];
  const pageData: { url: string; flag: string | undefined }[] = [];
  const answers: Promise<void>[] = [];
  const answered: { url: string; type: string; vary: string }[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/RSC/R/')) wakuAddresses.push(url.href);
    if (pageDataPathOf(url.href) !== null)
      pageData.push({ url: url.href, flag: request.headers().rsc });
  });
  page.on('response', (response) => {
    if (pageDataPathOf(response.url()) === null) return;
    answers.push(
      response.allHeaders().then((headers) => {
        answered.push({
          url: response.url(),
          type: headers['content-type'] ?? '',
          vary: headers.vary ?? '',
        });
      }),
    );
  });
  await page.goto('/');
  await hydrated(page);
  for (const name of ['About', 'Contact', 'Getting started']) {
    await nav(page).getByRole('link', { name }).click();
    await expect(page.locator('main h1')).toHaveText(name);
  }
  await page.goBack();
  await expect(page.locator('main h1')).toHaveText('Contact');
  await page.goForward();
  await expect(page.locator('main h1')).toHaveText('Getting started');
  // An editor's session: the dashboard, a preview, back to the dashboard.
  await signIn(page);
  await page.getByRole('link', { name: 'About', exact: true }).first().click();
  await expect(page).toHaveURL(/\/preview\/about$/);
  await page.goBack();
  await expect(page).toHaveURL(/\/preview$/);

  await Promise.all(answers);
  expect(wakuAddresses).toEqual([]);
  expect(pageData.length).toBeGreaterThanOrEqual(4);
  expect(pageData.filter((request) => request.flag !== '1')).toEqual([]);
  expect(pageData.map((request) => new URL(request.url).pathname)).toEqual(
    expect.arrayContaining(['/about', '/contact', '/getting-started']),
  );
  expect(answered.filter((answer) => !answer.type.startsWith('text/x-component'))).toEqual([]);
  expect(answered.filter((answer) => !/\bRSC\b/.test(answer.vary))).toEqual([]);
});

// The hostile pass's repro (issue 15): from the 404 page of `//evil.example`, a click and Back
// asked the page data of "//evil.example", which a browser reads as another site.
test('Back to a page whose path begins with two slashes stays on this site', async ({ page }) => {
  const offSite: string[] = [];
  await page.route(
    (url) => url.hostname === 'evil.example',
    (route) => {
      offSite.push(route.request().url());
      return route.abort();
    },
  );
  const base = process.env.E2E_BASE_URL ?? '';
  const response = await page.goto(`${base}//evil.example`);
  expect(response?.status()).toBe(404);
  await hydrated(page);
  await nav(page).getByRole('link', { name: 'About' }).click();
  await expect(page.locator('main h1')).toHaveText('About');
  await page.goBack();
  await page.waitForLoadState('load');
  expect(new URL(page.url()).origin).toBe(new URL(base).origin);
  expect(offSite).toEqual([]);
});

test('the bundle is asked for only after the page has painted, and the page then hydrates', async ({
  page,
}) => {
  const bundleRequests: string[] = [];
  page.on('request', (request) => {
    if (
      new URL(request.url()).pathname.startsWith('/assets/') &&
      request.resourceType() === 'script'
    )
      bundleRequests.push(request.url());
  });
  await page.goto('/');
  await hydrated(page);
  const timing = await page.evaluate(() => {
    const paint = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null;
    const scripts = performance
      .getEntriesByType('resource')
      .filter((entry) => /^\/assets\/.*\.js$/.test(new URL(entry.name).pathname))
      .map((entry) => entry.startTime);
    return { paint, firstScript: Math.min(...scripts), count: scripts.length };
  });
  expect(timing.paint).not.toBeNull();
  expect(bundleRequests.length).toBeGreaterThan(1);
  // The whole bundle, the entry and the modules it imports, starts after the first paint.
  expect(timing.firstScript).toBeGreaterThanOrEqual(timing.paint as number);
});

// Issue 27's leftovers: page data of an address with no page answers 404, as the page does;
// the router still shows its 404 page on a client navigation, with no full page load.
test('a client navigation to a page gone meanwhile shows the 404 page; its data answered 404', async ({
  page,
  seedPage,
  store,
}) => {
  const slug = 'e2e-nav-vanishing';
  await seedPage({ slug, title: 'E2E vanishing', body: 'Here for now.' });
  // In the site's navigation (a client-side link), for this test only.
  const settings = await store.getSiteSettings();
  const id = (await store.getPage(slug, { draft: false }))?.id;
  if (id === undefined) throw new Error('no seeded page');
  // First: the header folds what does not fit into "More", and this link must be in view.
  await store.saveSiteSettings({
    ...settings,
    navigation: [{ page: id }, ...(settings.navigation ?? [])],
  });
  try {
    // Its data is not fetched while it is still published (a prefetch would hold the page).
    const pageData = `**/${slug}?_rsc=*`;
    await page.route(pageData, (route) => route.abort());
    allowPageErrors(page, /net::ERR_FAILED/);
    const documents: string[] = [];
    const statuses: number[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'document') documents.push(new URL(request.url()).pathname);
    });
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.pathname === `/${slug}` && url.searchParams.has('_rsc'))
        statuses.push(response.status());
    });
    await page.goto('/');
    await hydrated(page);
    const link = nav(page).getByRole('link', { name: 'E2E vanishing' });
    await expect(link).toBeVisible();
    await store.unpublish(slug, { editor: null });
    await page.unroute(pageData);
    documents.length = 0;
    await link.click();
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    expect(new URL(page.url()).pathname).toBe(`/${slug}`);
    expect(statuses).toContain(404);
    expect(statuses).not.toContain(200);
    expect(documents).toEqual([]);
    // And back: the home page, still without a full load.
    await page.goBack();
    await expect(nav(page)).toBeVisible();
    expect(documents).toEqual([]);
  } finally {
    await store.saveSiteSettings(settings);
  }
});
