// Server actions: POSTs to the current page's address (original spec §7). With JavaScript the
// browser names Waku's action path in `x-folio-action` and this puts the request back on that
// path; without, the form names the action in its fields. Actions are public endpoints, so a
// call is checked before Waku decodes it: an action this build does not have (a page left open
// across a deploy) is the "out of date" 409; a call that does not decode the way React will
// decode it (forged ids, arguments that are not an argument list) is a 400. Never a 500.
// Before any of that is parsed, the body is bounded: read up to its action's limit (a sign-in
// takes kilobytes, only an upload with a file megabytes: http/body-limit.ts), and refused if
// any part React reads as JSON nests deeper than Folio's own calls ever do (waku/reply-shape.ts)
// — so a call costs at most its capped length to judge, whoever sends it.
// How the build and React are asked lives in src/lib/waku/actions.ts; this keeps the decision.
import type { MiddlewareHandler } from 'hono';
import { TYPED_FIELDS } from '../../editor/forms';
import { hasEditorSession } from '../../editors/session';
import {
  isDocumentRequest,
  requestErrorResponse,
  STALE_ACTION_VERDICT,
  TOO_LARGE_VERDICT,
} from '../../observability/request-errors';
import { getEnv } from '../../runtime/env';
import { type ServerActions, serverActionsOfThisBuild } from '../../waku/actions';
import { ACTION_PATH, actionIdOfPath, actionIdsOfForm } from '../../waku/internals';
import { nestingScanner, REPLY_MAX_DEPTH, replyNestsDeeperThan } from '../../waku/reply-shape';
import { bodyWithinLimits, requestBodyLimit } from '../body-limit';
import { requestContext } from '../request-context';

export const ACTION_HEADER = 'x-folio-action';

export type { ServerActions };

/** A call's body as read, before anything decodes it. */
type ReadBody =
  | { bytes: number; body: string | FormData | null }
  | 'too large'
  | 'too deep'
  | 'too many parts';

/**
 * The most parts a form may have. Folio's largest form (site settings) has a few dozen; every
 * part costs the parser and each check after it, and 25 000 tiny ones in 3 MB cost a second a
 * request (issue 24's hostile pass). Counted on the bytes, before the form is parsed.
 */
export const MAX_FORM_PARTS = 1000;

/** How many parts a multipart body has: its boundary's occurrences, counted without parsing. */
function partsOf(bytes: Buffer, contentType: string): number {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const delimiter = boundary?.[1] ?? boundary?.[2];
  if (!delimiter) return 0;
  const needle = Buffer.from(`--${delimiter}`);
  let count = 0;
  for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + needle.length))
    count += 1;
  // The last delimiter closes the body; it opens no part.
  return Math.max(0, count - 1);
}

/**
 * The body, read from a copy (Waku reads it again) and counted as it comes: past `limit`
 * bytes the reading stops and the call is refused, so a body sent without a length is held
 * to its action's limit too. A JavaScript call's body is one JSON text, judged for nesting as
 * it arrives (a form's parts are judged once it is parsed). `body` is null when it cannot be
 * read at all (truncated, malformed): Waku answers that with a 400 itself.
 */
async function readBody(request: Request, limit: number): Promise<ReadBody> {
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let bytes = 0;
  const type = request.headers.get('content-type') ?? '';
  const form = type.startsWith('multipart/form-data');
  const nesting = form ? null : nestingScanner(REPLY_MAX_DEPTH);
  let tooDeep = false;
  try {
    const reader = request.clone().body?.getReader();
    while (reader) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > limit) {
        await reader.cancel().catch(() => undefined);
        return 'too large';
      }
      // Too deep: the rest is read and dropped, not kept or judged, so the caller gets its 400
      // rather than a connection reset mid-upload; the limit above still bounds the reading.
      if (tooDeep || nesting?.feed(value)) tooDeep = true;
      else chunks.push(value);
    }
    if (tooDeep) return 'too deep';
    const whole = new Blob(chunks);
    if (form && partsOf(Buffer.from(await whole.arrayBuffer()), type) > MAX_FORM_PARTS)
      return 'too many parts';
    const body = form
      ? await new Response(whole, { headers: { 'content-type': type } }).formData()
      : await whole.text();
    return { bytes, body };
  } catch {
    return { bytes, body: null };
  }
}

/** Whether a form carries a file (only an upload may be megabytes, and only with one). */
function hasFile(body: string | FormData | null): boolean {
  if (!(body instanceof FormData)) return false;
  for (const [, value] of body) if (typeof value !== 'string') return true;
  return false;
}

/** Keeps what the editor typed, for the error page to hand back if this post fails. */
function keepTypedText(form: FormData): void {
  const kept = TYPED_FIELDS.flatMap((name) => {
    const value = form.get(name);
    return typeof value === 'string' && value.trim() !== '' ? [{ name, value }] : [];
  });
  if (kept.length > 0) requestContext().keptText = kept;
}

type Judgement = 'call' | 'not an action' | 'stale' | 'bad' | 'too large';

/** The name an action id (`<module>#<export>`) calls. */
const nameOfId = (id: string): string => id.slice(id.lastIndexOf('#') + 1);

async function judge(
  request: Request,
  url: URL,
  header: string | undefined,
  actions: ServerActions,
): Promise<Judgement> {
  const mediaMaxMb = getEnv().MEDIA_MAX_MB;
  const id = actionIdOfPath(url.pathname);
  if (id === null && !request.headers.get('content-type')?.startsWith('multipart/form-data'))
    return 'not an action';
  if (id !== null && !(await actions.exists(id))) return 'stale';
  const limit = await requestBodyLimit(url, header ?? null, mediaMaxMb, hasEditorSession);
  const read = await readBody(request, limit);
  if (read === 'too large') return 'too large';
  if (read === 'too deep' || read === 'too many parts') return 'bad';
  const { bytes, body } = read;
  // Before anything parses it, ours or React's: linear in the body's length, whatever its shape.
  if (body !== null && replyNestsDeeperThan(body)) return 'bad';
  if (id !== null) {
    if (
      !bodyWithinLimits(bytes, { actionNames: [nameOfId(id)], hasFile: hasFile(body), mediaMaxMb })
    )
      return 'too large';
    if (body === null) return 'call';
    return (await actions.decodesAsArguments(body)) ? 'call' : 'bad';
  }
  if (!(body instanceof FormData)) return 'not an action';
  keepTypedText(body);
  const found = actionIdsOfForm(body);
  if (found === 'malformed') return 'bad';
  if (found.length === 0) return 'not an action';
  // Each id once: a form may repeat one thousands of times, and asking the build is not free.
  const named = [...new Set(found)];
  // The size first: it needs no lookup, and a sign-in's id must not buy an upload's reading.
  if (
    !bodyWithinLimits(bytes, {
      actionNames: named.map(nameOfId),
      hasFile: hasFile(body),
      mediaMaxMb,
    })
  )
    return 'too large';
  // React uses the last action field it finds; every one must be real.
  for (const each of named) if (!(await actions.exists(each))) return 'stale';
  return (await actions.decodesAsFormAction(body)) ? 'call' : 'bad';
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
    const url = new URL(c.req.url);
    const verdict = await judge(c.req.raw, url, header, serverActions);
    if (verdict === 'stale' || verdict === 'bad' || verdict === 'too large') {
      const pathname = url.pathname;
      const document = header === undefined && isDocumentRequest(c.req.raw, pathname);
      return requestErrorResponse(
        verdict === 'stale'
          ? STALE_ACTION_VERDICT
          : verdict === 'too large'
            ? TOO_LARGE_VERDICT
            : { status: 400, message: 'Bad request.' },
        { document, pathname, kept: requestContext().keptText },
      );
    }
    return next();
  };
}
