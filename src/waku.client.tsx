// The browser entry: Waku's router, with React's root error callbacks reporting to Sentry and,
// as a last resort, the client-side fallback page when React had to unmount everything.
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot, type RootOptions } from 'react-dom/client';
import { unstable_defaultRootOptions as defaultRootOptions } from 'waku/client';
import { Router } from 'waku/router/client';
import { isPreviewPath } from './lib/http/routes';
import { captureClientError, startBrowserMonitoring } from './lib/observability/client-errors';
import { showClientFallbackPage } from './lib/observability/client-fallback';
import { pageWasServerRendered } from './lib/waku/internals';

const rootOptions: RootOptions = {
  ...defaultRootOptions,
  onUncaughtError(error, info) {
    console.error(error);
    captureClientError(error, {
      mechanism: 'onUncaughtError',
      componentStack: info.componentStack ?? '',
    });
    showClientFallbackPage(error);
  },
  onRecoverableError(error, info) {
    captureClientError(error, {
      mechanism: 'onRecoverableError',
      componentStack: info.componentStack ?? '',
    });
  },
};

const root = (
  <StrictMode>
    <Router />
  </StrictMode>
);

// A task of its own, after the one that evaluated the bundle: on a slow phone each alone stays
// short of a long task (what Lighthouse's Total Blocking Time counts), together they were not.
// A visitor's page hydrates in a transition: React hydrates in slices of a few milliseconds and
// yields between them, instead of in one task as long as the page is big (Next.js hydrates
// this way too). An editor's screens hydrate at once, as before: while hydration lasts, a
// caret put in the editor's text could be sent back to its start (hostile pass), and the
// sooner it is over the smaller that window.
// Monitoring starts once hydration has: a sampled view's tracing then loads at idle after it.
setTimeout(() => {
  const hydrate = () => {
    hydrateRoot(document, root, rootOptions);
  };
  if (!pageWasServerRendered()) createRoot(document, rootOptions).render(root);
  else if (isPreviewPath(window.location.pathname)) hydrate();
  else startTransition(hydrate);
  startBrowserMonitoring();
}, 0);
