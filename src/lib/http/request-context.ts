// Owns the one per-request context, opened by the front door before any of Folio's or Waku's
// code runs for a request: the request's facts (its route, client address, scheme and public
// origin), what pages and actions ask of the response (cookies, status, privacy), and what the
// error reporter and the render cache must know about the render.
import 'server-only';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { EditorSession } from '../editors/accounts';
import type { KeptText } from '../observability/fallback-page';
import type { RequestErrorVerdict } from '../observability/request-errors';
import { processSingleton } from '../runtime/process-singleton';
import type { Route } from './routes';

export type RequestContext = {
  /** The request as it reached the front door. */
  readonly request: Request;
  readonly url: URL;
  readonly route: Route;
  readonly https: boolean;
  readonly clientAddress: string;
  /** The origin for absolute links: SITE_URL, or this request's own. */
  readonly origin: string;

  /** Set-Cookie values pages and actions asked for. */
  readonly cookies: string[];
  /** The status of a full page load (401 sign-in form, 403 expired link…). */
  status: number | undefined;
  /** Never cached, never indexed: preview, signed-in and action responses. */
  isPrivate: boolean;

  /** The digest of this request's unexpected error, once one was reported. */
  digest: string | undefined;
  /** That error itself: the error page shows it in development (development.ts), never else. */
  error: unknown;
  /** A request-caused error seen during rendering: answered with this 4xx. */
  verdict: RequestErrorVerdict | undefined;
  /** The render failed part-way (inside Suspense, after a 200): never cache it. */
  renderFailed: boolean;
  /**
   * The render said "no such page" (Waku's not-found): its page data is answered with the 404
   * its HTML gets (front-door.ts withPageDataStatus).
   */
  renderedNotFound: boolean;
  /** The published page (slug) this render showed; the render cache stores only those. */
  renderedPublicPage: string | undefined;
  /** Who is signed in, once looked up (undefined: not yet). */
  session: Promise<EditorSession | null> | undefined;
  /**
   * The page an editor's form was made for, as the action that handled it found it: the page
   * rendered after a no-JavaScript form post shows that page, even when its old address now
   * belongs to another page.
   */
  formPageId: number | undefined;
  /**
   * What an editor typed into a form posted without JavaScript (title, summary, body): if the
   * post fails with a 5xx, the error page hands it back instead of losing it.
   */
  keptText: KeptText | undefined;
};

export type RequestFacts = Pick<
  RequestContext,
  'request' | 'url' | 'route' | 'https' | 'clientAddress' | 'origin'
>;

const storage = processSingleton('request-context', () => new AsyncLocalStorage<RequestContext>());

export function runInRequestContext<T>(facts: RequestFacts, work: () => T): T {
  const context: RequestContext = {
    ...facts,
    cookies: [],
    status: undefined,
    isPrivate: false,
    digest: undefined,
    error: undefined,
    verdict: undefined,
    renderFailed: false,
    renderedNotFound: false,
    renderedPublicPage: undefined,
    session: undefined,
    formPageId: undefined,
    keptText: undefined,
  };
  return storage.run(context, work);
}

/** The current request's context, or undefined outside a request (CLI, start-up, tests). */
export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}

/** The current request's context; code that runs only for requests uses this. */
export function requestContext(): RequestContext {
  const context = storage.getStore();
  if (!context) throw new Error('requestContext() called outside a request');
  return context;
}

export function setResponseCookie(cookie: string): void {
  currentRequestContext()?.cookies.push(cookie);
}

/** The HTTP status of a full page load (401 sign-in form, 403 expired link…). */
export function setDocumentStatus(status: number): void {
  const context = currentRequestContext();
  if (context) context.status = status;
}

export function markPrivate(): void {
  const context = currentRequestContext();
  if (context) context.isPrivate = true;
}

/** Called by the error reporter: this request's response must not be cached. */
export function markRenderFailed(): void {
  const context = currentRequestContext();
  if (context) context.renderFailed = true;
}

/** Called by the render-error hook when a render said "no such page" (Waku's notFound()). */
export function markRenderedNotFound(): void {
  const context = currentRequestContext();
  if (context) context.renderedNotFound = true;
}

/** Called by a public page that rendered a real page: the response may be cached. */
export function markPublicPageRendered(slug: string): void {
  const context = currentRequestContext();
  if (context) context.renderedPublicPage = slug;
}

/** Called by an editor action: the page its form was made for (see `formPageId`). */
export function noteFormPage(pageId: number): void {
  const context = currentRequestContext();
  if (context) context.formPageId = pageId;
}
