// Unexpected errors: turns errors caused by the request itself into a 4xx, reports the rest,
// and replaces a 5xx document response with the server-side fallback page (Waku alone sends an
// empty <body> when a render fails outside <Suspense>).
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { hasEditorSession } from '../../editors/session';
import {
  clientWentAway,
  isControlFlowError,
  reportDatabaseFull,
  reportDatabaseOutage,
  reportUnexpectedError,
} from '../../observability/errors';
import { renderServerFallbackPage } from '../../observability/fallback-page';
import { log } from '../../observability/log';
import {
  classifyRequestError,
  FULL_VERDICT,
  isDocumentRequest,
  type RequestErrorVerdict,
  requestErrorResponse,
  TOO_LARGE_VERDICT,
  UNAVAILABLE_VERDICT,
} from '../../observability/request-errors';
import { getEnv } from '../../runtime/env';
import { DEVELOPMENT } from '../../waku/development';
import { requestBodyLimit } from '../body-limit';
import { PRIVATE_CACHE_CONTROL } from '../cache-headers';
import { requestContext } from '../request-context';
import { ACTION_HEADER } from './actions';

function replaceResponse(c: Context, response: Response) {
  void c.res.body?.cancel().catch(() => undefined);
  c.res = undefined;
  c.res = response;
}

/** Answers with a verdict's response; one that is the server's condition (503) is logged. */
function answerWith(
  c: Context,
  verdict: RequestErrorVerdict,
  where: { document: boolean; pathname: string },
) {
  if (verdict === UNAVAILABLE_VERDICT) reportDatabaseOutage(where.pathname);
  else if (verdict === FULL_VERDICT) reportDatabaseFull(where.pathname);
  else if (verdict.status >= 500)
    log.warn('request refused', {
      status: verdict.status,
      reason: verdict.message,
      route: where.pathname,
    });
  replaceResponse(c, requestErrorResponse(verdict, { ...where, kept: requestContext().keptText }));
}

export function errorPages({ app }: { app: Hono }): MiddlewareHandler {
  // Hono's default handler prints every thrown error, including the bad requests this
  // middleware answers with a 4xx; errors are logged once, by the reporter, instead.
  app.onError((error, c) => {
    // HTTPExceptions (the body limit's 413) carry their own response; a browser posting a form
    // gets a page that says what happened and where the typed text still is.
    const withResponse = error as { getResponse?: () => Response };
    if (typeof withResponse.getResponse !== 'function') return c.text('Internal Server Error', 500);
    const response = withResponse.getResponse();
    if (response.status !== 413) return response;
    const pathname = new URL(c.req.url).pathname;
    return requestErrorResponse(TOO_LARGE_VERDICT, {
      document: isDocumentRequest(c.req.raw, pathname),
      pathname,
    });
  });
  return async function errorPagesMiddleware(c, next) {
    // A body declared larger than this address takes is refused before it is read. (The
    // adapter's own limit, the largest of all, stops bodies sent without a length.)
    const declared = Number(c.req.header('content-length') ?? 0);
    const { url } = requestContext();
    if (
      declared >
      (await requestBodyLimit(
        url,
        c.req.header(ACTION_HEADER) ?? null,
        getEnv().MEDIA_MAX_MB,
        hasEditorSession,
      ))
    )
      return requestErrorResponse(TOO_LARGE_VERDICT, {
        document: isDocumentRequest(c.req.raw, url.pathname),
        pathname: url.pathname,
      });
    await next();
    const context = requestContext();
    const pathname = context.url.pathname;
    const document = isDocumentRequest(c.req.raw, pathname);
    if (c.error) {
      // Caused by the request (a refused origin, an action from an older build, a bad body).
      const verdict = classifyRequestError(c.error);
      if (verdict) {
        answerWith(c, verdict, { document, pathname });
        return;
      }
      if (!isControlFlowError(c.error))
        reportUnexpectedError(c.error, { where: 'handler', route: pathname });
    }
    const status = c.res.status;
    // The health check answers 503 on purpose when the database does not: that is its answer.
    if (status < 500 || context.route.kind === 'healthz') return;
    // A status a page or an action asked for on purpose (a form the database could not take
    // comes back as a 503, its text kept): an answer, not a failure to report.
    if (context.status === status) return;
    if (context.verdict) {
      answerWith(c, context.verdict, { document, pathname });
      return;
    }
    // Nobody is waiting for it: a render the client walked away from is not a bug to report.
    if (context.digest === undefined && clientWentAway()) return;
    // A 5xx with no error object seen still gets an id, so the page, the log and Sentry agree.
    const digest =
      context.digest ??
      reportUnexpectedError(new Error(`HTTP ${status} without a reported error`), {
        where: 'response',
        route: pathname,
      });
    const headers = {
      'cache-control': PRIVATE_CACHE_CONTROL,
      'x-error-digest': digest,
    };
    replaceResponse(
      c,
      document
        ? new Response(
            renderServerFallbackPage({
              host: new URL(context.origin).hostname,
              digest,
              kept: context.keptText,
              ...(DEVELOPMENT ? { developerError: context.error } : {}),
            }),
            {
              status: 500,
              headers: { ...headers, 'content-type': 'text/html; charset=utf-8' },
            },
          )
        : new Response('Internal Server Error\n', {
            status: 500,
            headers: { ...headers, 'content-type': 'text/plain; charset=utf-8' },
          }),
    );
  };
}
