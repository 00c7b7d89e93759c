// Server actions: POSTs to the current page's address (original spec §7). With JavaScript the
// browser names Waku's action path in `x-folio-action` and this puts the request back on that
// path; without, the form names the action in its fields. Actions are public endpoints, so a
// call is checked before Waku decodes it: an action this build does not have (a page left open
// across a deploy) is the "out of date" 409; a call that does not decode the way React will
// decode it (forged ids, arguments that are not an argument list) is a 400. Never a 500.
// How the build and React are asked lives in src/lib/waku/actions.ts; this keeps the decision.
import type { MiddlewareHandler } from 'hono';
import { TYPED_FIELDS } from '../../editor/forms';
import {
  isDocumentRequest,
  requestErrorResponse,
  STALE_ACTION_VERDICT,
} from '../../observability/request-errors';
import { type ServerActions, serverActionsOfThisBuild } from '../../waku/actions';
import { ACTION_PATH, actionIdOfPath, actionIdsOfForm } from '../../waku/internals';
import { requestContext } from '../request-context';

export const ACTION_HEADER = 'x-folio-action';

export type { ServerActions };

/** The body, read from a copy (Waku reads it again); null when it cannot be read at all. */
async function bodyOf(request: Request): Promise<string | FormData | null> {
  try {
    const copy = request.clone();
    return request.headers.get('content-type')?.startsWith('multipart/form-data')
      ? await copy.formData()
      : await copy.text();
  } catch {
    // Not a readable body (truncated, malformed): Waku answers that with a 400 itself.
    return null;
  }
}

/** Keeps what the editor typed, for the error page to hand back if this post fails. */
function keepTypedText(form: FormData): void {
  const kept = TYPED_FIELDS.flatMap((name) => {
    const value = form.get(name);
    return typeof value === 'string' && value.trim() !== '' ? [{ name, value }] : [];
  });
  if (kept.length > 0) requestContext().keptText = kept;
}

type Judgement = 'call' | 'not an action' | 'stale' | 'bad';

async function judge(
  request: Request,
  pathname: string,
  actions: ServerActions,
): Promise<Judgement> {
  const id = actionIdOfPath(pathname);
  if (id !== null) {
    if (!(await actions.exists(id))) return 'stale';
    const body = await bodyOf(request);
    if (body === null) return 'call';
    return (await actions.decodesAsArguments(body)) ? 'call' : 'bad';
  }
  if (!request.headers.get('content-type')?.startsWith('multipart/form-data'))
    return 'not an action';
  const form = await bodyOf(request);
  if (!(form instanceof FormData)) return 'not an action';
  keepTypedText(form);
  const named = actionIdsOfForm(form);
  if (named === 'malformed') return 'bad';
  if (named.length === 0) return 'not an action';
  // React uses the last action field it finds; every one must be real.
  for (const each of named) if (!(await actions.exists(each))) return 'stale';
  return (await actions.decodesAsFormAction(form)) ? 'call' : 'bad';
}

export function actions({
  serverActions = serverActionsOfThisBuild,
}: {
  serverActions?: ServerActions;
} = {}): MiddlewareHandler {
  return async function actionsMiddleware(c, next) {
    if (c.req.method !== 'POST') return next();
    const header = c.req.header(ACTION_HEADER);
    if (header !== undefined) {
      const original = c.req.raw;
      const target = new URL(header, original.url);
      // The header must name an action address as it is: not one that only becomes one, or
      // becomes another route, once `..` and `%2e` are resolved.
      if (
        !ACTION_PATH.test(header) ||
        target.pathname !== header ||
        target.origin !== new URL(original.url).origin
      )
        return c.text('Bad request: unknown action address.\n', 400);
      c.req.raw = new Request(target, {
        method: 'POST',
        headers: original.headers,
        body: original.body,
        signal: original.signal,
        // Required for a streamed body; given explicitly (copying the old Request crashes in dev).
        duplex: 'half',
      } as RequestInit);
    }
    const pathname = new URL(c.req.url).pathname;
    const verdict = await judge(c.req.raw, pathname, serverActions);
    if (verdict === 'stale' || verdict === 'bad') {
      const document = header === undefined && isDocumentRequest(c.req.raw, pathname);
      return requestErrorResponse(
        verdict === 'stale' ? STALE_ACTION_VERDICT : { status: 400, message: 'Bad request.' },
        { document, pathname },
      );
    }
    return next();
  };
}
