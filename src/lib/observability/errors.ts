// Owns unexpected-error handling on the server: the digest, the log line and the Sentry event.
import 'server-only';
import * as Sentry from '@sentry/bun';
import { suspectContentVersion } from '../data/content-version';
import {
  currentRequestContext,
  markRenderedNotFound,
  markRenderFailed,
} from '../http/request-context';
import { processSingleton } from '../runtime/process-singleton';
import { setRenderErrorHook, wakuErrorInfo } from '../waku/internals';
import { log } from './log';
import { classifyRequestError } from './request-errors';

/** A 32-hex id: a valid Sentry event_id, short enough to read out to support. */
export function newDigest(): string {
  return crypto.randomUUID().replaceAll('-', '');
}

/** Waku's own control-flow errors (not found, redirect): the router's business, not bugs. */
export function isControlFlowError(error: unknown): boolean {
  return wakuErrorInfo(error) !== null;
}

function activeTraceId(): string | undefined {
  const span = Sentry.getActiveSpan();
  return span ? span.spanContext().traceId : undefined;
}

// SSR re-throws an RSC error as a new object carrying the same digest: report it once.
const recentlyReported = processSingleton('recently-reported-digests', () => new Set<string>());

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
  const request = currentRequestContext();
  const digest =
    holder.digest && /^[0-9a-f]{32}$/.test(holder.digest) ? holder.digest : newDigest();
  if (typeof error === 'object' && error !== null) holder.digest = digest;
  if (request && request.digest === undefined) {
    request.digest = digest;
    request.error = error;
  }
  if (holder.__folioReported || recentlyReported.has(digest)) return digest;
  if (typeof error === 'object' && error !== null) holder.__folioReported = true;
  recentlyReported.add(digest);
  if (recentlyReported.size > 1000)
    recentlyReported.delete(recentlyReported.values().next().value as string);
  const route = context.route ?? request?.url.pathname;
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

/** Called by Waku's React `onError` (see waku-internals.ts) for every render error. */
export function onRenderError(error: unknown): void {
  const control = wakuErrorInfo(error);
  if (control !== null) {
    // Not an error: a redirect or "no such page". The latter is noted for the page data's
    // status (the HTML's is Waku's own).
    if (control.status === 404) markRenderedNotFound();
    return;
  }
  // The HTML renderer re-throws an error of the component render as a new one with a generic
  // message: once this request has its verdict (a 503 while the database is out of reach),
  // that echo is part of the same refusal, not a bug of its own.
  // So is a second read's failure in the same render (a page and its site frame read the
  // database side by side, and an outage fails both).
  if (currentRequestContext()?.verdict) {
    answeredElsewhere(error);
    return;
  }
  const verdict = classifyRequestError(error);
  if (verdict) {
    // Caused by the request (e.g. a form from an older build), or the database's state: the
    // middleware answers with the verdict. Whatever was rendered is not kept.
    markRenderFailed();
    const request = currentRequestContext();
    if (request) request.verdict = verdict;
    answeredElsewhere(error);
    return;
  }
  // The visitor went away (a closed tab, a page closed mid-upload) and React aborted the render
  // ("The render was aborted by the server without a reason"): nobody is left to answer, nothing
  // of it is kept, and it is no bug (the errors middleware lets its 500 go unreported too).
  if (clientWentAway()) {
    markRenderFailed();
    return;
  }
  reportUnexpectedError(error, { where: 'render' });
}

/**
 * Marks an error the middleware answers and logs: Waku prints "Error during rendering: …" (a
 * raw stack on stderr) for any error without a digest, so it gets one.
 */
function answeredElsewhere(error: unknown): void {
  if (typeof error === 'object' && error !== null && !(error as { digest?: unknown }).digest)
    (error as { digest?: string }).digest = newDigest();
}

/** The request's client closed the connection before its answer was done. */
export function clientWentAway(): boolean {
  return currentRequestContext()?.request.signal.aborted === true;
}

setRenderErrorHook(onRenderError);

const outage = processSingleton('database-outage', () => ({ reportedAt: 0, fullReportedAt: 0 }));
const OUTAGE_REPORT_INTERVAL_MS = 60_000;

/**
 * The database could not be reached for a request. An outage fails every request that needs
 * the database: it is logged and sent to Sentry once a minute at most, not once per request.
 */
export function reportDatabaseOutage(route: string): void {
  // Whatever dropped for this request may have dropped the LISTEN connection too.
  suspectContentVersion();
  const now = Date.now();
  if (now - outage.reportedAt < OUTAGE_REPORT_INTERVAL_MS) return;
  outage.reportedAt = now;
  log.error('database unavailable', { route, note: 'reported at most once a minute' });
  if (Sentry.isInitialized())
    Sentry.captureMessage('Folio cannot reach its database', { level: 'error', tags: { route } });
}

/**
 * A write failed because the database's disk is full. Like an outage, an expected fault that
 * fails every write until someone frees space: logged and sent to Sentry once a minute at most
 * (an operator must act), never as a bug per request. /healthz says so meanwhile (db.ts
 * remembers the failed write: checkDatabase).
 */
export function reportDatabaseFull(route = currentRequestContext()?.url.pathname): void {
  const now = Date.now();
  if (now - outage.fullReportedAt < OUTAGE_REPORT_INTERVAL_MS) return;
  outage.fullReportedAt = now;
  log.error('database full', {
    route,
    note: 'writes fail until space is freed; reported at most once a minute',
  });
  if (Sentry.isInitialized())
    Sentry.captureMessage('Folio cannot write: its database is full', {
      level: 'error',
      tags: { route: route ?? 'unknown' },
    });
}
