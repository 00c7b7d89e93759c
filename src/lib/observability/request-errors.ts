// Owns the line between bad requests and bugs for errors Waku throws before rendering: a bad
// page-data path, an action id from an older build, a refused origin. Those get a 4xx and a
// plain message; everything else is a bug and gets a digest.

export const STALE_PAGE_MESSAGE = 'This page is out of date — reload it to continue.';

export type RequestErrorVerdict = { status: number; message: string; stale?: boolean };

const WAKU_CUSTOM_ERROR = '__WAKU_CUSTOM_ERROR__;';

function wakuStatus(error: unknown): number | null {
  const digest = (error as { digest?: unknown } | null)?.digest;
  if (typeof digest !== 'string' || !digest.startsWith(WAKU_CUSTOM_ERROR)) return null;
  try {
    const info = JSON.parse(digest.slice(WAKU_CUSTOM_ERROR.length)) as { status?: unknown };
    return typeof info.status === 'number' ? info.status : null;
  } catch {
    return null;
  }
}

const STATUS_MESSAGES: Record<number, string> = {
  400: 'Bad request.',
  403: 'Forbidden: this request must come from this site.',
  404: 'Not found.',
  405: 'Method not allowed.',
  409: STALE_PAGE_MESSAGE,
  413: 'The request is too large.',
};

/** A 4xx verdict for errors caused by the request itself, or null for a bug. */
export function classifyRequestError(error: unknown): RequestErrorVerdict | null {
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
  [/^Can't decode form data|^missing final boundary|while parsing FormData/, BAD_REQUEST],
  [
    /^missing request body for server function$|^Connection closed|^Invalid (?:JSON|reply)|^Unexpected token/,
    BAD_REQUEST,
  ],
];
