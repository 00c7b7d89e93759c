'use client';
import { Component, type ErrorInfo, type ReactNode, useEffect } from 'react';
import { useRouter } from 'waku/router/client';
import { unstable_isFollowable as isFollowable } from 'waku/router/client-core';
import { captureClientError, serverDigestOf } from '../lib/observability/client-errors';
import { fallbackMessage } from '../lib/observability/fallback-page';
import { DEVELOPMENT } from '../lib/waku/development';

type Props = { children: ReactNode; resetKey: string };
type State = { error: unknown };

/** The fallback page of the original spec, for errors that reach the page in the browser. */
export function FallbackPage({ error }: { error: unknown }) {
  const digest = serverDigestOf(error);
  const host = typeof window === 'undefined' ? '' : window.location.hostname;
  return (
    <main className="app-error">
      <h1>{fallbackMessage(digest ? 'server' : 'client', host)}</h1>
      {/* The words and the way out of the server's own error page (fallback-page.ts). */}
      <p>
        {/* The server records its errors; the browser's are sent only where Sentry is set up. */}
        {digest
          ? 'Something went wrong on our side, and it has been recorded.'
          : 'Something went wrong.'}{' '}
        Try again in a moment, or <a href="/">go to the home page</a>.
      </p>
      {digest ? <p className="digest">Digest: {digest}</p> : null}
      {DEVELOPMENT && error instanceof Error ? (
        // `bun run dev` only: what a developer needs to fix it, where they are looking.
        <section className="dev-error" aria-label="The error (shown in development only)">
          <h2>
            The error (shown by <code>bun run dev</code> only)
          </h2>
          <pre>{error.stack ?? `${error.name}: ${error.message}`}</pre>
        </section>
      ) : null}
    </main>
  );
}

class Boundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    // Redirects and not-found are the router's business, not errors.
    if (isFollowable(error)) throw error;
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    // Server errors were reported on the server with this digest; only browser errors go from here.
    if (!serverDigestOf(error))
      captureClientError(error, {
        mechanism: 'error-boundary',
        componentStack: info.componentStack ?? '',
      });
  }

  override componentDidUpdate(previous: Props) {
    if (this.state.error === null) return;
    // A navigation clears the error; under `bun run dev` so does new content from the server
    // (a hot update after the developer fixed a server component), or the page stayed on the
    // error until a reload. If it still fails, the error shows again.
    if (
      previous.resetKey !== this.props.resetKey ||
      (DEVELOPMENT && previous.children !== this.props.children)
    )
      this.setState({ error: null });
  }

  override render() {
    return this.state.error !== null ? (
      <FallbackPage error={this.state.error} />
    ) : (
      this.props.children
    );
  }
}

/** Shows the fallback page for an error under it and clears it on the next navigation. */
export function AppErrorBoundary({ children }: { children: ReactNode }) {
  const { path, query } = useRouter();
  useEffect(() => {
    // Marks the page as interactive (forms now submit through React, not the browser).
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return <Boundary resetKey={`${path}?${query}`}>{children}</Boundary>;
}
