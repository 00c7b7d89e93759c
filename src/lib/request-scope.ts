// Owns per-request state that pages and actions hand to the HTTP layer: cookies to set, the
// status of the document, and whether the response is private (never cached, never indexed).
import 'server-only';
import { AsyncLocalStorage } from 'node:async_hooks';

export type RequestScope = { cookies: string[]; status?: number; isPrivate: boolean };

// On globalThis: the rsc bundle's pages and the middleware must share one store.
const KEY = Symbol.for('folio.request-scope');
const holder = globalThis as unknown as { [KEY]?: AsyncLocalStorage<RequestScope> };
holder[KEY] ??= new AsyncLocalStorage<RequestScope>();
export const requestScopeStorage = holder[KEY];

function scope(): RequestScope | undefined {
  return requestScopeStorage.getStore();
}

export function setResponseCookie(cookie: string): void {
  scope()?.cookies.push(cookie);
}

/** The HTTP status of a full page load (401 sign-in form, 403 expired link, …). */
export function setDocumentStatus(status: number): void {
  const current = scope();
  if (current) current.status = status;
}

export function markPrivate(): void {
  const current = scope();
  if (current) current.isPrivate = true;
}
