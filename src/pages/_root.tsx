// The reading face (site.css): asked for at once, so that on a first visit it arrives within
// `font-display: optional`'s moment and the page is read in it rather than in the fallback.
import serifFont from '@fontsource-variable/source-serif-4/files/source-serif-4-latin-wght-normal.woff2?url';
import type { ReactNode } from 'react';
import { preload } from 'react-dom';
import { AppErrorBoundary } from '../components/app-error-boundary';
import { LoadFailureGuard } from '../components/load-failure-guard';
import { NavigationRuntime } from '../components/navigation-runtime';
import { accentStyle } from '../components/site-frame';
import { StaleActionNotice } from '../components/stale-action-notice';
import { contentStore } from '../lib/content/content';
import { DEFAULT_ACCENT, DEFAULT_LANGUAGE, directionOf } from '../lib/content/settings';
import { browserMonitoringConfig } from '../lib/observability/browser-config';
// Inlined rather than linked: one small stylesheet costs less than the round trip that a
// render-blocking <link> adds before first paint on a slow connection.
import styles from '../styles/site.css?inline';

// The document shell (Waku's HTML shell already sets charset and viewport). Per-page <title>
// and <meta> tags are rendered by each page and hoisted into <head> by React 19.
export default async function Root({ children }: { children: ReactNode }) {
  const monitoring = browserMonitoringConfig();
  // The site's language and accent (Site settings). Without the database the document still
  // renders (its error page says why), in the defaults.
  const { language, accent, favicon } = await contentStore()
    .getSiteSettings()
    .catch(() => ({ language: DEFAULT_LANGUAGE, accent: DEFAULT_ACCENT, favicon: null }));
  // React puts one <link rel="preload"> in <head> for it (an element here would be two).
  preload(serifFont, { as: 'font', type: 'font/woff2', crossOrigin: '' });
  return (
    <html
      lang={language}
      dir={directionOf(language)}
      data-sentry-dsn={monitoring.dsn}
      data-sentry-environment={monitoring.environment}
      data-sentry-traces-sample-rate={monitoring.tracesSampleRate}
      data-sentry-spotlight={monitoring.spotlight}
    >
      <head>
        <LoadFailureGuard />
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: our own stylesheet, inlined at build time */}
        <style dangerouslySetInnerHTML={{ __html: styles }} />
        {accent === DEFAULT_ACCENT ? null : <style>{accentStyle(accent)}</style>}
        {favicon ? (
          // `/media/<hash>` leads to the image in its own format (media-serving.ts).
          <link rel="icon" href={`/media/${favicon}`} />
        ) : (
          <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        )}
      </head>
      <body>
        <StaleActionNotice />
        <NavigationRuntime />
        <AppErrorBoundary>{children}</AppErrorBoundary>
      </body>
    </html>
  );
}

// Dynamic: content changes without a rebuild, so nothing may be baked in at build time.
export const getConfig = async () => ({ render: 'dynamic' }) as const;
