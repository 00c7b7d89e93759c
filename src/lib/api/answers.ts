// Owns how every answer under /api looks, whoever gives it: JSON, `{"error": {code, message}}`
// for a refusal, readable from any origin. The front door's own refusals of an API address (a
// method, a path no endpoint could be at) use it too, so a script never gets the site's HTML.
import 'server-only';
import { ALLOWED_METHODS } from '../http/routes';
import { NO_SUCH_ENDPOINT } from './params';

/** The methods the API answers: the routes table's, said once (routes.ts ALLOWED_METHODS). */
export const API_METHODS = (ALLOWED_METHODS.api ?? []).join(', ');

/**
 * On every answer: any origin may read it, no credentials; the tag and the rate limit's fields
 * (access.ts) are readable by scripts.
 */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'ETag, RateLimit, RateLimit-Policy, Retry-After',
};
export const JSON_TYPE = 'application/json; charset=utf-8';

export type Problem = { status: number; code: string; message: string };

export function problemResponse(problem: Problem, headers: Record<string, string> = {}): Response {
  return new Response(
    `${JSON.stringify({ error: { code: problem.code, message: problem.message } })}\n`,
    {
      status: problem.status,
      // A refusal is not kept: the same address may answer once the content changes.
      headers: {
        'content-type': JSON_TYPE,
        'cache-control': 'no-store',
        ...CORS_HEADERS,
        ...headers,
      },
    },
  );
}

/** The front door's refusal of an API address, as JSON (front-door.ts). */
export function apiRefusal(status: 404 | 405 | 414): Response {
  if (status === 405)
    return problemResponse(
      {
        status,
        code: 'method_not_allowed',
        message: `The content API is read-only: it answers ${API_METHODS}.`,
      },
      { allow: API_METHODS },
    );
  if (status === 414)
    return problemResponse({
      status,
      code: 'address_too_long',
      message: 'This address is too long for any endpoint.',
    });
  return problemResponse(NO_SUCH_ENDPOINT);
}
