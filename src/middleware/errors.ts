// Unexpected errors: runs each request with a place for its digest, turns errors caused by
// the request itself into a 4xx, reports the rest, and replaces a 5xx document response with
// the server-side fallback page (Waku alone sends an empty <body> when a render fails
// outside <Suspense>).
import type { Context, Hono, MiddlewareHandler } from 'hono';
import {
  isControlFlowError,
  type RequestErrorState,
  reportUnexpectedError,
  requestErrorState,
} from '../lib/observability/errors';
import { renderServerFallbackPage } from '../lib/observability/fallback-page';
import {
  classifyRequestError,
  type RequestErrorVerdict,
} from '../lib/observability/request-errors';

function isDocumentRequest(request: Request, pathname: string): boolean {
  // Actions sent to the page's address (x-folio-action) are fetches, not documents.
  if (pathname.startsWith('/RSC/') || request.headers.has('x-folio-action')) return false;
  const accept = request.headers.get('accept') ?? '';
  return accept === '' || accept.includes('text/html') || accept.includes('*/*');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function replaceResponse(c: Context, response: Response) {
  void c.res.body?.cancel().catch(() => undefined);
  c.res = undefined;
  c.res = response;
}

function requestErrorResponse(
  verdict: RequestErrorVerdict,
  document: boolean,
  pathname: string,
): Response {
  const headers: Record<string, string> = { 'cache-control': 'private, no-store' };
  if (verdict.status === 405) headers.allow = 'POST';
  if (verdict.stale) headers['x-folio-stale'] = '1';
  if (!document) {
    return new Response(`${verdict.message}\n`, {
      status: verdict.status,
      headers: { ...headers, 'content-type': 'text/plain; charset=utf-8' },
    });
  }
  const reload = verdict.stale
    ? `<p><a href="${escapeHtml(pathname)}">Reload the page</a></p>`
    : '';
  const html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(verdict.message)}</title></head><body><main><h1>${escapeHtml(verdict.message)}</h1>${reload}</main></body></html>`;
  return new Response(html, {
    status: verdict.status,
    headers: { ...headers, 'content-type': 'text/html; charset=utf-8' },
  });
}

export function errorPages({ app }: { app: Hono }): MiddlewareHandler {
  // Hono's default handler prints every thrown error, including the bad requests this
  // middleware answers with a 4xx; errors are logged once, by the reporter, instead.
  app.onError((error, c) => {
    // HTTPExceptions (the body limit's 413) carry their own response.
    const withResponse = error as { getResponse?: () => Response };
    return typeof withResponse.getResponse === 'function'
      ? withResponse.getResponse()
      : c.text('Internal Server Error', 500);
  });
  return async function errorPagesMiddleware(c, next) {
    const url = new URL(c.req.url);
    const state: RequestErrorState = { route: url.pathname };
    await requestErrorState.run(state, () => next());
    const document = isDocumentRequest(c.req.raw, url.pathname);
    if (c.error && !isControlFlowError(c.error)) {
      const verdict = classifyRequestError(c.error);
      if (verdict) {
        replaceResponse(c, requestErrorResponse(verdict, document, url.pathname));
        return;
      }
      state.digest ??= reportUnexpectedError(c.error, { where: 'handler', route: url.pathname });
    } else if (c.error) {
      // A Waku control-flow error thrown before rendering (e.g. a refused origin: 403).
      const verdict = classifyRequestError(c.error);
      if (verdict) {
        replaceResponse(c, requestErrorResponse(verdict, document, url.pathname));
        return;
      }
    }
    const status = c.res.status;
    if (status < 500) return;
    if (state.verdict) {
      replaceResponse(c, requestErrorResponse(state.verdict, document, url.pathname));
      return;
    }
    // A 5xx with no error object seen still gets an id, so the page, the log and Sentry agree.
    const digest =
      state.digest ??
      reportUnexpectedError(new Error(`HTTP ${status} without a reported error`), {
        where: 'response',
        route: url.pathname,
      });
    if (!document) {
      replaceResponse(
        c,
        new Response('Internal Server Error\n', {
          status: 500,
          headers: {
            'content-type': 'text/plain; charset=utf-8',
            'cache-control': 'private, no-store',
            'x-error-digest': digest,
          },
        }),
      );
      return;
    }
    replaceResponse(
      c,
      new Response(renderServerFallbackPage({ host: url.hostname, digest }), {
        status: 500,
        headers: {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'private, no-store',
          'x-error-digest': digest,
        },
      }),
    );
  };
}
