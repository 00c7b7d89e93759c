// Owns error reporting in the browser. Like Sentry's own Loader Script, it loads the SDK
// (Sentry's React SDK, sentry-react.ts) only when there is something to send: at the first
// error, or at idle after hydration when this page view is sampled for tracing (SENTRY_TRACES_SAMPLE_RATE). Until then errors wait in a
// short queue, so a visitor whose page view is neither sampled nor failing downloads no Sentry
// code at all (docs/decisions/0009). Without a configured DSN nothing leaves the browser.

/** How an error was caught (`mechanism`, a tag) and, from React, its component stack. */
export type ClientErrorContext = { mechanism: string; componentStack?: string };
type Captured = { error: unknown; context: ClientErrorContext };
type Reporter = (error: unknown, context: ClientErrorContext) => void;

const MAX_QUEUED = 50;
const queue: Captured[] = [];
let reporter: Reporter | null = null;
let load: (() => void) | null = null;

export function captureClientError(error: unknown, context: ClientErrorContext): void {
  if (reporter) {
    reporter(error, context);
    return;
  }
  if (queue.length < MAX_QUEUED) queue.push({ error, context });
  load?.();
}

/** Digests are 32 hex characters made by the server; anything else is not ours to show. */
export function serverDigestOf(error: unknown): string | undefined {
  const digest = (error as { digest?: unknown } | null)?.digest;
  return typeof digest === 'string' && /^[0-9a-f]{32}$/.test(digest) ? digest : undefined;
}

/** The page view's tracing decision: a rate outside [0, 1] or unreadable means "not sampled". */
export function sampledForTracing(rate: string | undefined, random = Math.random()): boolean {
  const value = rate === undefined || rate === '' ? Number.NaN : Number(rate);
  return Number.isFinite(value) && value > 0 && random < Math.min(value, 1);
}

/** Errors the inline guard script kept before this bundle ran (load-failure-guard.tsx). */
type EarlyErrors = [mechanism: string, error: unknown][] | null | undefined;

function takeEarlyErrors(): NonNullable<EarlyErrors> {
  const holder = window as { __folioEarlyErrors?: EarlyErrors };
  const early = holder.__folioEarlyErrors ?? [];
  // From here on the listeners below report errors; the inline ones stop keeping them.
  holder.__folioEarlyErrors = null;
  return early;
}

export function startBrowserMonitoring(): void {
  if (load || typeof document === 'undefined') return;
  const early = takeEarlyErrors();
  const {
    sentryDsn: dsn,
    sentryEnvironment,
    sentryTracesSampleRate,
    sentrySpotlight: spotlight,
  } = document.documentElement.dataset;
  // Neither Sentry nor (under `bun run dev`) Spotlight: nothing leaves the browser.
  if (!dsn && !spotlight) {
    queue.length = 0;
    return;
  }
  const tracing = sampledForTracing(sentryTracesSampleRate);
  let loading = false;
  load = () => {
    if (loading) return;
    loading = true;
    import('./sentry-react')
      .then(({ initSentryReact }) =>
        initSentryReact(dsn, sentryEnvironment, { tracing, spotlight }),
      )
      .then((ready) => {
        reporter = ready;
        for (const item of queue.splice(0)) ready(item.error, item.context);
        // A signal for operators (and tests) that reporting is live on this page.
        document.documentElement.dataset.sentryReady = 'true';
      })
      .catch((error: unknown) => console.error('Sentry could not be loaded', error));
  };
  // Errors outside React's render (event handlers, timers, promises) are ours to catch: the
  // SDK's own global handlers are left out so nothing is reported twice.
  window.addEventListener('error', (event) => {
    captureClientError(event.error ?? event.message, { mechanism: 'onerror' });
  });
  window.addEventListener('unhandledrejection', (event) => {
    captureClientError(event.reason, { mechanism: 'onunhandledrejection' });
  });
  for (const [mechanism, error] of early) captureClientError(error, { mechanism });
  if (queue.length > 0) load();
  else if (tracing) {
    // Tracing reads the page load's timings from the browser's buffered performance entries,
    // so starting after hydration loses nothing and costs nothing before first paint.
    if ('requestIdleCallback' in window) window.requestIdleCallback(load, { timeout: 3000 });
    else setTimeout(load, 1);
  }
}
