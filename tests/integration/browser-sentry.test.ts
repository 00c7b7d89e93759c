// The browser's Sentry loading in real Chromium against the production build and a real
// envelope receiver: a page view that is neither sampled nor failing downloads no Sentry code;
// the first error loads the errors-only SDK and still arrives; a sampled view adds tracing.

// test-engines: the SQLite half only — what loads in the browser and what reaches the receiver
// does not depend on the database under the server.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { type Browser, chromium, type Page } from '@playwright/test';
import { addEditor } from '../../src/lib/editors/accounts';
import { signInWithForm } from '../forms';
import { type RunningFolio, startFolio, waitFor } from '../harness';
import { errorEvents, spanOp, spans, startEnvelopeReceiver } from '../sentry-receiver';
import { CHROMIUM_LAUNCH } from '../support';

/** The JavaScript files a page requested, by file name without the content hash. */
function scriptsOf(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script')
      scripts.push(
        new URL(request.url()).pathname.replace(/^.*\//, '').replace(/-[\w-]{8}\.js$/, ''),
      );
  });
  return scripts;
}

describe('Sentry in the browser', () => {
  const receiver = startEnvelopeReceiver();
  let browser: Browser;

  beforeAll(async () => {
    browser = await chromium.launch(CHROMIUM_LAUNCH);
  }, 20_000);

  afterAll(async () => {
    await browser?.close();
    receiver.stop();
  });

  /** The build with Sentry pointed at the receiver, browser and server alike. */
  const monitoredServer = (tracesSampleRate: string) =>
    startFolio({
      env: {
        SENTRY_DSN: receiver.dsn,
        WAKU_PUBLIC_SENTRY_DSN: receiver.dsn,
        SENTRY_TRACES_SAMPLE_RATE: tracesSampleRate,
      },
    });

  describe('a page view not sampled for tracing', () => {
    let server: RunningFolio;
    beforeAll(async () => {
      server = await monitoredServer('0');
    }, 60_000);
    // Stopping drops a PostgreSQL database too: more than the default 5 s on a busy machine.
    afterAll(() => server?.stop(), 30_000);

    test('loads no Sentry code until an error, then reports it through the tunnel', async () => {
      const page = await browser.newPage();
      const scripts = scriptsOf(page);
      await page.goto(`${server.url}/about`, { waitUntil: 'networkidle' });
      // Idle time after hydration, when a sampled view starts loading the SDK: once a second
      // idle callback has run, any such import has already been requested.
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
      for (let i = 0; i < 2; i++)
        await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
      expect(scripts.length).toBeGreaterThan(0);
      expect(scripts.filter((name) => name.startsWith('sentry'))).toEqual([]);

      const marker = `unsampled-${Date.now()}`;
      await page.evaluate((message) => {
        setTimeout(() => {
          throw new Error(message);
        });
      }, marker);
      const event = await waitFor(() =>
        errorEvents(receiver.envelopes).find((e) => JSON.stringify(e.exception).includes(marker)),
      );
      expect(event.tags?.mechanism).toBe('onerror');
      // Playwright reports requests through its own pipe, which can lag behind the event that
      // reached the receiver: wait for the report rather than race it.
      await waitFor(() => (scripts.includes('sentry-react') ? true : undefined), {
        timeoutMs: 5_000,
        what: 'the request for the Sentry SDK',
      });
      expect(scripts).not.toContain('sentry-tracing');
      await page.close();
    }, 30_000);

    test("a render error is the first error: @sentry/react's handler sends it with the component stack", async () => {
      const editor = { email: 'sentry-react@example.com', password: 'a passphrase for sentry' };
      await addEditor(await server.database(), editor.email, editor.password);
      const { cookie } = await signInWithForm(server.url, editor.email, editor.password);
      const context = await browser.newContext();
      await context.addCookies(
        cookie.split('; ').map((pair) => {
          const [name = '', ...value] = pair.split('=');
          return { name, value: value.join('='), url: server.url };
        }),
      );
      const page = await context.newPage();
      const scripts = scriptsOf(page);
      await page.goto(`${server.url}/preview?developer`);
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
      expect(scripts.filter((name) => name.startsWith('sentry'))).toEqual([]);
      const before = errorEvents(receiver.envelopes).length;
      // The preview's test button renders a component that throws.
      await page.getByRole('button', { name: 'Send a test error from the browser' }).click();
      const event = await waitFor(() =>
        errorEvents(receiver.envelopes)
          .slice(before)
          .find((e) => JSON.stringify(e.exception).includes('Folio test error from the browser')),
      );
      expect(event.sdk?.name).toBe('sentry.javascript.react');
      expect(event.tags?.mechanism).toBe('error-boundary');
      // The component stack, as the React SDK links it: an error of its own whose frames are
      // the components above the one that threw (minified names, and the host elements the
      // test-errors section sits in).
      const linked = event.exception?.values?.find((value) =>
        value.type?.startsWith('React ErrorBoundary'),
      );
      const frames = (linked?.stacktrace?.frames ?? []) as { function?: string }[];
      expect(frames.map((frame) => frame.function)).toEqual(
        expect.arrayContaining(['section', 'main', 'body', 'html']),
      );
      await context.close();
    }, 30_000);

    // The hostile pass's repro (issue 15): the browser SDK sent a share link's token as the
    // page had it (an error message with the URL; a span's attributes); only the server
    // scrubbed.
    test("a share link's token in the page's URL never leaves the browser", async () => {
      const token = `sharetoken${Date.now()}`;
      const page = await browser.newPage();
      await page.goto(`${server.url}/about?share=${token}`);
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
      await page.evaluate(() => {
        setTimeout(() => {
          throw new Error(`failed at ${location.href}`);
        });
      });
      const event = await waitFor(() =>
        errorEvents(receiver.envelopes).find((e) =>
          JSON.stringify(e.exception).includes('failed at'),
        ),
      );
      expect(JSON.stringify(event)).toContain('share=[Filtered]');
      expect(JSON.stringify(receiver.envelopes)).not.toContain(token);
      await page.close();
    }, 30_000);

    test('an error thrown before the SDK could load is queued and still arrives', async () => {
      const page = await browser.newPage();
      const marker = `early-${Date.now()}`;
      // Rejected during the page's first script run, long before anything lazy has loaded.
      await page.addInitScript((message) => {
        window.addEventListener('DOMContentLoaded', () => {
          void Promise.reject(new Error(message));
        });
      }, marker);
      await page.goto(`${server.url}/`);
      const event = await waitFor(() =>
        errorEvents(receiver.envelopes).find((e) => JSON.stringify(e.exception).includes(marker)),
      );
      expect(event.tags?.mechanism).toBe('onunhandledrejection');
      await page.close();
    }, 30_000);
  });

  describe('a page view sampled for tracing', () => {
    let server: RunningFolio;
    beforeAll(async () => {
      server = await monitoredServer('1');
    }, 60_000);
    // Stopping drops a PostgreSQL database too: more than the default 5 s on a busy machine.
    afterAll(() => server?.stop(), 30_000);

    test('loads the SDK with tracing at idle and sends the page load', async () => {
      const before = spans(receiver.envelopes).length;
      const page = await browser.newPage();
      const scripts = scriptsOf(page);
      await page.goto(`${server.url}/about`);
      await page.waitForFunction(() => document.documentElement.dataset.sentryReady === 'true');
      expect(scripts).toContain('sentry-react');
      expect(scripts).toContain('sentry-tracing');
      // The page-load span ends on its own once the page is quiet.
      const pageload = await waitFor(
        () =>
          spans(receiver.envelopes)
            .slice(before)
            .find((span) => span.is_segment && spanOp(span) === 'pageload'),
        { timeoutMs: 20_000 },
      );
      expect(pageload).toBeDefined();
      // Spans are scrubbed in the browser too: a page load at a share link names no token.
      const token = `sharetoken${Date.now()}`;
      const shared = await browser.newPage();
      await shared.goto(`${server.url}/contact?share=${token}`);
      await shared.waitForFunction(() => document.documentElement.dataset.sentryReady === 'true');
      await waitFor(
        () =>
          spans(receiver.envelopes).find(
            (span) => span.is_segment && JSON.stringify(span).includes('/contact'),
          ),
        { timeoutMs: 20_000 },
      );
      expect(JSON.stringify(receiver.envelopes)).not.toContain(token);
      await shared.close();
      await page.close();
    }, 40_000);
  });
});
