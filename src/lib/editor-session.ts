// Owns the editor's session as seen from a request: the cookie, who is signed in, sign-in/out.
import 'server-only';
import { parse, serialize } from 'hono/utils/cookie';
import { unstable_getRequest as getRequest } from 'waku/router/server';
import { getDatabase } from './db';
import {
  createSession,
  type EditorSession,
  endAllSessions,
  endSession,
  getSession,
  SESSION_TTL_SECONDS,
} from './editors';
import { markPrivate, setResponseCookie } from './request-scope';

export const EDITOR_SESSION_COOKIE = 'folio_session';

function requestIsHttps(request: Request): boolean {
  return (
    new URL(request.url).protocol === 'https:' ||
    request.headers.get('x-forwarded-proto') === 'https'
  );
}

function sessionIdFrom(request: Request): string | undefined {
  const header = request.headers.get('cookie');
  return header ? parse(header, EDITOR_SESSION_COOKIE)[EDITOR_SESSION_COOKIE] : undefined;
}

// The layout and the page both ask who is signed in; one lookup per request is enough.
const sessionsByRequest = new WeakMap<Request, EditorSession | null>();

/** The signed-in editor of the current request, or null. Marks the response private. */
export function currentEditorSession(request: Request = getRequest()): EditorSession | null {
  const session = sessionsByRequest.has(request)
    ? (sessionsByRequest.get(request) ?? null)
    : getSession(getDatabase(), sessionIdFrom(request));
  sessionsByRequest.set(request, session);
  if (session) markPrivate();
  return session;
}

function sessionCookie(value: string, maxAge: number, request: Request): string {
  return serialize(EDITOR_SESSION_COOKIE, value, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: requestIsHttps(request),
    path: '/',
    maxAge,
  });
}

/** Starts a fresh session (a new id on every sign-in) and sets its cookie. */
export function startEditorSession(editorId: number, request: Request = getRequest()): void {
  sessionsByRequest.delete(request);
  endSession(getDatabase(), sessionIdFrom(request));
  const session = createSession(getDatabase(), editorId);
  setResponseCookie(sessionCookie(session.id, SESSION_TTL_SECONDS, request));
}

export function endEditorSession(
  { everywhere = false } = {},
  request: Request = getRequest(),
): void {
  sessionsByRequest.delete(request);
  const db = getDatabase();
  const session = getSession(db, sessionIdFrom(request));
  if (everywhere && session) endAllSessions(db, session.editor.id);
  endSession(db, sessionIdFrom(request));
  setResponseCookie(sessionCookie('', 0, request));
}
