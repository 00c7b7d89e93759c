// Owns unexpected-error handling on the server: the digest, the log line and the Sentry event.
import { AsyncLocalStorage } from 'node:async_hooks';
import * as Sentry from '@sentry/bun';
import { log } from '../log';
import { markRenderFailed } from '../render-cache';
import { classifyRequestError, type RequestErrorVerdict } from './request-errors';

/** Waku marks its own control-flow errors (not found, redirect) with this digest prefix. */
const WAKU_CONTROL_FLOW = '__WAKU_CUSTOM_ERROR__;';

export type RequestErrorState = { route: string; digest?: string; verdict?: RequestErrorVerdict };

// Kept on globalThis: the rsc and ssr bundles are separate module instances in one process,
// and server.ts outside the bundle must see the same store.
const STORE_KEY = Symbol.for('folio.request-error-state');
const globalStore = globalThis as unknown as Record<symbol, AsyncLocalStorage<RequestErrorState>>;
globalStore[STORE_KEY] ??= new AsyncLocalStorage<RequestErrorState>();
export const requestErrorState = globalStore[STORE_KEY];

const recentlyReported = new Set<string>();

/** A 32-hex id: a valid Sentry event_id, short enough to read out to support. */
export function newDigest(): string {
  return crypto.randomUUID().replaceAll('-', '');
}

export function isControlFlowError(error: unknown): boolean {
  const digest = (error as { digest?: unknown } | null)?.digest;
  return typeof digest === 'string' && digest.startsWith(WAKU_CONTROL_FLOW);
}

function activeTraceId(): string | undefined {
  const span = Sentry.getActiveSpan();
  return span ? span.spanContext().traceId : undefined;
}

/**
 * Reports an unexpected error once: gives it a digest (kept if it already has one), writes one
 * structured log line, and sends it to Sentry with the digest as the event id. Returns the
 * digest. Expected outcomes never come here.
 */
export function reportUnexpectedError(
  error: unknown,
  context: { route?: string; where: string },
): string {
  const holder = (typeof error === 'object' && error !== null ? error : {}) as {
    digest?: string;
    __folioReported?: boolean;
  };
  markRenderFailed();
  const state = requestErrorState.getStore();
  const digest =
    holder.digest && /^[0-9a-f]{32}$/.test(holder.digest) ? holder.digest : newDigest();
  if (typeof error === 'object' && error !== null) holder.digest = digest;
  if (state) state.digest ??= digest;
  if (holder.__folioReported || recentlyReported.has(digest)) return digest;
  if (typeof error === 'object' && error !== null) holder.__folioReported = true;
  // SSR re-throws an RSC error as a new object carrying the same digest: report it once.
  recentlyReported.add(digest);
  if (recentlyReported.size > 1000)
    recentlyReported.delete(recentlyReported.values().next().value as string);
  const route = context.route ?? state?.route;
  log.error('unexpected error', {
    digest,
    route,
    where: context.where,
    traceId: activeTraceId(),
    error: error instanceof Error ? error : new Error(String(error)),
  });
  if (Sentry.isInitialized()) {
    Sentry.captureException(error, {
      event_id: digest,
      captureContext: { tags: { route: route ?? 'unknown', where: context.where } },
    });
  }
  return digest;
}

/** Called by Waku's React `onError` (see waku.config.ts) for every render error. */
export function onRenderError(error: unknown): void {
  if (isControlFlowError(error)) return;
  const verdict = classifyRequestError(error);
  if (verdict) {
    // Caused by the request (e.g. a form from an older build): the middleware answers 4xx.
    const state = requestErrorState.getStore();
    if (state) state.verdict = verdict;
    return;
  }
  reportUnexpectedError(error, { where: 'render' });
}

// The hook Waku's patched onError calls; set when this module loads in the rsc bundle.
(
  globalThis as unknown as { __FOLIO_ON_RENDER_ERROR__?: (e: unknown) => void }
).__FOLIO_ON_RENDER_ERROR__ = onRenderError;
