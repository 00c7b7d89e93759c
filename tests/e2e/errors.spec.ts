import type { Page } from '@playwright/test';
import type { ReceivedEnvelope } from '../sentry-receiver';
import { errorEvents } from '../sentry-receiver';
import { allowPageErrors, expect, pageDataPathOf, test } from './fixtures';

const RECEIVER = process.env.E2E_SENTRY_URL ?? '';
const DIGEST = /Digest: ([0-9a-f]{32})/;

async function received(): Promise<ReceivedEnvelope[]> {
  return (await (await fetch(`${RECEIVER}/__envelopes`)).json()) as ReceivedEnvelope[];
}

async function eventById(id: string) {
  let found: ReturnType<typeof errorEvents>[number] | undefined;
  await expect
    .poll(
      async () => {
        found = errorEvents(await received()).find((event) => event.event_id === id);
        return found !== undefined;
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  return found;
}

/** Signs in, presses the server test-error button on /preview, returns the action's response. */
async function sendServerTestError(page: Page, signIn: (page: Page, at?: string) => Promise<void>) {
  await signIn(page, '/preview?developer');
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST'),
    page.getByRole('button', { name: 'Send a test error from the server' }).click(),
  ]);
  return response;
}

test.describe('server action error with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });
  test('the fallback page shows with a digest equal to the Sentry event id', async ({
    page,
    signIn,
  }) => {
    allowPageErrors(page, /status of 500 \(Internal Server Error\)/);
    const response = await sendServerTestError(page, signIn);
    expect(response.status()).toBe(500);
    const host = new URL(page.url()).hostname;
    await expect(page.locator('h1')).toHaveText(
      `Application error: a server-side exception has occurred while loading ${host} (see the server logs for more information).`,
    );
    const body = (await page.locator('body').textContent()) ?? '';
    const digest = DIGEST.exec(body)?.[1] ?? '';
    expect(digest).toMatch(/^[0-9a-f]{32}$/);
    expect(body).not.toContain('Folio test error');
    expect(response.headers()['x-error-digest']).toBe(digest);
    const event = await eventById(digest);
    expect(event?.tags?.route).toBe('/preview');
    expect(JSON.stringify(event?.exception)).toContain('Folio test error from the server');
  });
});

test('a server action error with JavaScript on shows the fallback page with the same digest', async ({
  page,
  signIn,
}) => {
  allowPageErrors(page, /status of 500 \(Internal Server Error\)/, /A server action failed/);
  const response = await sendServerTestError(page, signIn);
  const digest = response.headers()['x-error-digest'] ?? '';
  expect(digest).toMatch(/^[0-9a-f]{32}$/);
  await expect(page.getByText(`Digest: ${digest}`)).toBeVisible();
  await expect(page.locator('h1')).toContainText(
    'Application error: a server-side exception has occurred',
  );
  await eventById(digest);
});

test('a browser error reaches Sentry through the tunnel and shows the client-side fallback', async ({
  page,
  signIn,
}) => {
  allowPageErrors(page, /Folio test error from the browser/);
  await signIn(page);
  const tunnelled: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/monitoring') tunnelled.push(request.url());
  });
  await page.goto('/preview?developer');
  // The SDK loads when the browser is idle after hydration.
  await expect(page.locator('html')).toHaveAttribute('data-sentry-ready', 'true', {
    timeout: 10_000,
  });
  await page.getByRole('button', { name: 'Send a test error from the browser' }).click();
  await expect(page.locator('h1')).toContainText(
    'Application error: a client-side exception has occurred',
  );
  await expect
    .poll(
      async () => JSON.stringify(errorEvents(await received()).map((event) => event.exception)),
      { timeout: 10_000 },
    )
    .toContain('Folio test error from the browser');
  expect(tunnelled.length).toBeGreaterThan(0);
});

test('page-data and action requests carry sentry-trace and baggage, and the server continues the trace', async ({
  page,
  signIn,
}) => {
  // Saver mode: no prefetch, so the click below makes the page-data request itself.
  await page.addInitScript(() =>
    Object.defineProperty(navigator, 'connection', { value: { saveData: true } }),
  );
  const traced: { kind: string; url: string; trace: string; baggage: string }[] = [];
  page.on('request', async (request) => {
    const headers = await request.allHeaders();
    const kind = pageDataPathOf(request.url())
      ? 'page data'
      : headers['x-folio-action']
        ? 'action'
        : '';
    if (kind)
      traced.push({
        kind,
        url: request.url(),
        trace: headers['sentry-trace'] ?? '',
        baggage: headers.baggage ?? '',
      });
  });
  const sentryReady = () =>
    expect(page.locator('html')).toHaveAttribute('data-sentry-ready', 'true', { timeout: 10_000 });

  // Page data: a client navigation on the public site.
  await page.goto('/contact');
  await sentryReady();
  await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'About' }).click();
  await expect(page.locator('main h1')).toHaveText('About');
  // An action: create a share link in the preview.
  await signIn(page, '/preview/about');
  await sentryReady();
  await page.getByRole('button', { name: 'Create share link' }).click();
  await expect(page.getByLabel('Share link', { exact: true })).toBeVisible();

  for (const kind of ['page data', 'action']) {
    const request = traced.find((t) => t.kind === kind);
    expect(request?.trace, kind).toMatch(/^[0-9a-f]{32}-[0-9a-f]{16}(-[01])?$/);
    expect(request?.baggage, kind).toContain('sentry-trace_id=');
  }
  const traceIds = new Set(traced.map((t) => t.trace.slice(0, 32)).filter(Boolean));
  // The server's http.server span for those requests carries the same trace id.
  await expect
    .poll(
      async () => {
        const text = JSON.stringify(await received());
        return [...traceIds].some((id) => text.includes(`"trace_id":"${id}"`));
      },
      { timeout: 15_000 },
    )
    .toBe(true);
});

test('a failed script load reloads the page once, then shows the client-side fallback page', async ({
  page,
}) => {
  allowPageErrors(page, /Failed to load resource: net::ERR_FAILED/);
  // Document requests: one per load (history updates and duplicate load events do not count).
  const loads: string[] = [];
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.resourceType() === 'document')
      loads.push(request.url());
  });
  await page.route(/\/assets\/index-[^/]+\.js$/, (route) => route.abort());
  await page.goto('/about');
  await expect(page.locator('h1')).toContainText(
    'Application error: a client-side exception has occurred',
    { timeout: 10_000 },
  );
  // Quiet network: a third load would have started by now.
  await page.waitForLoadState('networkidle');
  expect(loads, JSON.stringify(loads)).toHaveLength(2);
});

test.describe('a form from an older build (unknown action id)', () => {
  test('with JavaScript: the page says it is out of date and does not crash', async ({
    page,
    signIn,
  }) => {
    await signIn(page, '/preview/about');
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    // The action goes to the page's address; its header names an id this build does not have.
    await page.route(/\/preview\/about$/, async (route) => {
      const headers = await route.request().allHeaders();
      const action = headers['x-folio-action'];
      if (route.request().method() !== 'POST' || !action) return route.continue();
      return route.continue({
        headers: {
          ...headers,
          'x-folio-action': action.replace(/\/RSC\/F\/[^/]+\//, '/RSC/F/0000deadbeef/'),
        },
      });
    });
    await page.getByRole('button', { name: 'Create share link' }).click();
    await expect(page.getByRole('alert')).toContainText(
      'This page is out of date — reload it to continue.',
    );
    await expect(page.locator('article h1')).toBeVisible();
  });
});

test("with JavaScript an action is a POST to the page's own address, naming the action in a header", async ({
  page,
  signIn,
}) => {
  await signIn(page, '/preview/about');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const [request] = await Promise.all([
    page.waitForRequest((r) => r.method() === 'POST'),
    page.getByRole('button', { name: 'Create share link' }).click(),
  ]);
  expect(new URL(request.url()).pathname).toBe('/preview/about');
  expect(request.headers()['x-folio-action']).toMatch(/^\/RSC\/F\/[^/]+\/createShareLink\.txt$/);
  await expect(page.getByLabel('Share link', { exact: true })).toBeVisible();
});
