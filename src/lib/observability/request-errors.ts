// Owns the line between bad requests and bugs for errors Waku throws before rendering: a bad
// page-data path, an action id from an older build, a refused origin. Those get a 4xx and a
// plain message (a small page for a browser's document request); everything else is a bug and
// gets a digest. Shared with the browser, which shows the stale-page message itself.

import { BODY_MAX } from '../content/field-limits';
import { isDatabaseBusy, isDatabaseFull, isDatabaseUnavailable } from '../data/db-errors';
import { PRIVATE_CACHE_CONTROL } from '../http/cache-headers';
import { RSC_PREFIX, wakuErrorInfo } from '../waku/internals';
import { escapeHtml, type KeptText, keptTextHtml, staticPage } from './fallback-page';

export const STALE_PAGE_MESSAGE = 'This page is out of date — reload it to continue.';

export type RequestErrorVerdict = { status: number; message: string; stale?: boolean };

function wakuStatus(error: unknown): number | null {
  const status = wakuErrorInfo(error)?.status;
  return typeof status === 'number' ? status : null;
}

const STATUS_MESSAGES: Record<number, string> = {
  400: 'Bad request.',
  403: 'Forbidden: this request must come from this site.',
  404: 'Not found.',
  405: 'Method not allowed.',
  409: STALE_PAGE_MESSAGE,
  413: 'The request is too large.',
};

// Recognised by a brand, not a class: a check must hold across module copies.
const BAD_REQUEST_BRAND = Symbol.for('folio.bad-request');

/** An error for code to throw when the request itself is wrong (a forged action call…). */
export function badRequest(message = 'Bad request.'): Error {
  return Object.assign(new Error(message), { [BAD_REQUEST_BRAND]: true });
}

/** Another process held the database's write lock too long: the request can be retried. */
export const BUSY_VERDICT: RequestErrorVerdict = {
  status: 503,
  message: 'Folio is busy. Nothing was changed; try again in a moment.',
};

/** The database (PostgreSQL) is out of reach: an outage, reported once, not per request. */
export const UNAVAILABLE_VERDICT: RequestErrorVerdict = {
  status: 503,
  message: 'Folio cannot reach its database right now. Try again in a moment.',
};

/** The database's disk is full: nothing can be written until space is freed (reported once). */
export const FULL_VERDICT: RequestErrorVerdict = {
  status: 503,
  message: 'Folio cannot save right now: its database is out of space. Nothing was changed.',
};

/**
 * A verdict for errors that are not bugs, or null for a bug: a 4xx for errors caused by the
 * request itself, a 503 for a database busy beyond its timeout (load, not a defect: never
 * reported to Sentry, and logged as a warning by the error middleware) or out of reach (an
 * outage: reported once by the error middleware, not once per request).
 */
export function classifyRequestError(error: unknown): RequestErrorVerdict | null {
  if (isDatabaseBusy(error)) return BUSY_VERDICT;
  if (isDatabaseFull(error)) return FULL_VERDICT;
  if (isDatabaseUnavailable(error)) return UNAVAILABLE_VERDICT;
  if ((error as { [BAD_REQUEST_BRAND]?: unknown } | null)?.[BAD_REQUEST_BRAND] === true)
    return { status: 400, message: 'Bad request.' };
  // The client hung up while its request was being read: there is no one to answer.
  if ((error as { name?: unknown } | null)?.name === 'AbortError')
    return { status: 400, message: 'The request was not complete.' };
  const status = wakuStatus(error);
  if (status !== null && status >= 400 && status < 500) {
    return { status, message: STATUS_MESSAGES[status] ?? 'Bad request.' };
  }
  // Hono's HTTPException (e.g. 413 from the body limit) already carries the right status.
  const httpStatus = (error as { status?: unknown; getResponse?: unknown } | null)?.status;
  if (
    typeof httpStatus === 'number' &&
    httpStatus >= 400 &&
    httpStatus < 500 &&
    typeof (error as { getResponse?: unknown }).getResponse === 'function'
  ) {
    return { status: httpStatus, message: STATUS_MESSAGES[httpStatus] ?? 'Bad request.' };
  }
  // React's reply decoder throws SyntaxError on a body that is not what a client would send.
  if (error instanceof SyntaxError) return { status: 400, message: STATUS_MESSAGES[400] as string };
  const message = error instanceof Error ? error.message : '';
  for (const [pattern, verdict] of MESSAGE_VERDICTS) if (pattern.test(message)) return verdict;
  return null;
}

const BAD_REQUEST: RequestErrorVerdict = { status: 400, message: 'Bad request.' };

// Messages of errors that Waku, React or Bun throw while reading a request they cannot use.
// Matched narrowly: anything not listed here is treated as a bug and reported.
const MESSAGE_VERDICTS: [RegExp, RequestErrorVerdict][] = [
  // An action id this build does not have (a page from an older build), or not an id at all.
  [
    /^server reference not found|^TinyAssertionError$/,
    { status: 409, message: STALE_PAGE_MESSAGE, stale: true },
  ],
  [/^Invalid encoded rscPath$|^rscPath should start with/, { status: 404, message: 'Not found.' }],
  // Bodies that are not what their content type says.
  // (A chunked body that does not parse says "FormData parse error missing final boundary".)
  [
    /^Can't decode form data|^missing final boundary|while parsing FormData|^FormData parse error/,
    BAD_REQUEST,
  ],
  [
    /^missing request body for server function$|^Connection closed|^Invalid (?:JSON|reply)|^Unexpected token/,
    BAD_REQUEST,
  ],
];

/** How soon a 503 (a database busy, out of reach or full) asks to be tried again. */
export const RETRY_AFTER_SECONDS = '2';

/** The answer to a request-caused error: plain text for fetches, a small page for documents. */
export function requestErrorResponse(
  verdict: RequestErrorVerdict,
  { document, pathname, kept }: { document: boolean; pathname: string; kept?: KeptText },
): Response {
  const headers: Record<string, string> = { 'cache-control': PRIVATE_CACHE_CONTROL };
  if (verdict.status === 405) headers.allow = 'POST';
  if (verdict.status === 503) headers['retry-after'] = RETRY_AFTER_SECONDS;
  if (verdict.stale) headers['x-folio-stale'] = '1';
  if (!document) {
    return new Response(`${verdict.message}\n`, {
      status: verdict.status,
      headers: { ...headers, 'content-type': 'text/plain; charset=utf-8' },
    });
  }
  const html = staticPage({
    title: verdict.message,
    heading: verdict.message,
    body: verdict.stale
      ? `<p>It was sent from a page that an update of the site replaced. Your typed text is still in the page you came from: go back, copy it, then reload.</p><p><a href="${escapeHtml(pathname)}">Reload the page</a></p>`
      : verdict === TOO_LARGE_VERDICT
        ? `<p>What you sent is larger than Folio takes: an image may be as large as the media library says, and a page's body holds at most ${BODY_MAX.toLocaleString('en')} characters. Your text is still in the page you came from: go back (your browser keeps what you typed), shorten it or choose a smaller image, and send it again.</p>`
        : verdict.status === 503
          ? `${keptTextHtml(kept)}<p><a href="${escapeHtml(pathname)}">Try again</a></p>`
          : keptTextHtml(kept),
  });
  return new Response(html, {
    status: verdict.status,
    headers: { ...headers, 'content-type': 'text/html; charset=utf-8' },
  });
}

/** A browser loading a page (not a fetch for page data or an action's result). */
export function isDocumentRequest(request: Request, pathname: string): boolean {
  // Actions sent to the page's address (x-folio-action) are fetches, not documents.
  if (pathname.startsWith(RSC_PREFIX) || request.headers.has('x-folio-action')) return false;
  const accept = request.headers.get('accept') ?? '';
  return accept === '' || accept.includes('text/html') || accept.includes('*/*');
}

/** A request body over REQUEST_BODY_MAX_BYTES, refused before it is read. */
export const TOO_LARGE_VERDICT: RequestErrorVerdict = {
  status: 413,
  message: 'Too large to save: nothing was saved.',
};

export const STALE_ACTION_VERDICT: RequestErrorVerdict = {
  status: 409,
  message: STALE_PAGE_MESSAGE,
  stale: true,
};
