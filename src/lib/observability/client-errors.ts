// Owns error reporting in the browser: a queue until the Sentry SDK has loaded (it loads after
// hydration so it costs nothing before first paint), then straight to Sentry through the
// same-origin tunnel. Without a configured DSN nothing leaves the browser.

type Captured = { error: unknown; context: Record<string, string> };
type Reporter = (error: unknown, context: Record<string, string>) => void;

const queue: Captured[] = [];
let reporter: Reporter | null = null;
let started = false;

export function captureClientError(error: unknown, context: Record<string, string> = {}): void {
  if (reporter) reporter(error, context);
  else if (queue.length < 50) queue.push({ error, context });
}

/** Digests are 32 hex characters made by the server; anything else is not ours to show. */
export function serverDigestOf(error: unknown): string | undefined {
  const digest = (error as { digest?: unknown } | null)?.digest;
  return typeof digest === 'string' && /^[0-9a-f]{32}$/.test(digest) ? digest : undefined;
}

export function startBrowserMonitoring(): void {
  if (started || typeof document === 'undefined') return;
  started = true;
  const dsn = document.documentElement.dataset.sentryDsn;
  if (!dsn) {
    queue.length = 0;
    return;
  }
  const load = () => {
    import('./sentry-browser')
      .then(({ initSentryBrowser }) => {
        reporter = initSentryBrowser(dsn, document.documentElement.dataset.sentryEnvironment);
        for (const item of queue.splice(0)) reporter(item.error, item.context);
        // A signal for operators (and tests) that reporting is live on this page.
        document.documentElement.dataset.sentryReady = 'true';
      })
      .catch((error: unknown) => console.error('Sentry could not be loaded', error));
  };
  if ('requestIdleCallback' in window) window.requestIdleCallback(load, { timeout: 3000 });
  else setTimeout(load, 1);
}
