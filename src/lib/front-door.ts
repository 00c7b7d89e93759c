// Owns what happens to a request before Waku sees it: refusing URLs no route could serve
// (before the adapter's static file server chokes on them) and the headers every response
// carries, static files included.
import 'server-only';

type Fetch = (request: Request, ...rest: never[]) => Response | Promise<Response>;

export const MAX_URL_LENGTH = 8 * 1024;
const MAX_SEGMENT_LENGTH = 255;

/**
 * What Folio loads, and nothing else. Scripts need 'unsafe-inline': Waku's bootstrap and the
 * RSC payload are inline scripts without a nonce in 1.0.0-rc.1, and so is our load-failure
 * guard (docs/decisions/0007). Images may come from https (Markdown can embed them); every
 * request the page makes (page data, actions, the Sentry tunnel) is same-origin.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' https: data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const BASE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'permissions-policy':
    'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
  'cross-origin-opener-policy': 'same-origin',
};

const HSTS = 'max-age=31536000; includeSubDomains';

function servedOverHttps(request: Request): boolean {
  return request.url.startsWith('https:') || request.headers.get('x-forwarded-proto') === 'https';
}

const NOT_FOUND_HTML =
  '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Page not found</title></head><body><h1>Page not found</h1><p><a href="/">Go to the home page</a></p></body></html>';

/** Why a URL is refused outright, or null to let it through. */
export function refuseUrl(rawUrl: string): { status: 404 | 414 } | null {
  if (rawUrl.length > MAX_URL_LENGTH) return { status: 414 };
  const pathStart = rawUrl.indexOf('/', rawUrl.indexOf('//') + 2);
  const queryStart = rawUrl.indexOf('?', pathStart);
  const path = rawUrl.slice(pathStart, queryStart === -1 ? undefined : queryStart);
  // NUL bytes (raw or encoded) and encoded slashes/backslashes/dots in the path never name a
  // page; they are the stuff of traversal attempts.
  if (/%00|\0|%2f|%5c|%2e%2e/i.test(path)) return { status: 404 };
  // No page, asset or file name is this long, and the static file server fails (ENAMETOOLONG)
  // rather than answering 404 when asked for one.
  if (path.split('/').some((segment) => segment.length > MAX_SEGMENT_LENGTH))
    return { status: 404 };
  return null;
}

export function applyBaseHeaders(response: Response, { https = false } = {}): Response {
  const headers = https ? { ...BASE_HEADERS, 'strict-transport-security': HSTS } : BASE_HEADERS;
  try {
    for (const [name, value] of Object.entries(headers)) {
      if (!response.headers.has(name)) response.headers.set(name, value);
    }
    return response;
  } catch {
    // Responses made by fetch() have immutable headers: copy once.
    const copy = new Response(response.body, response);
    for (const [name, value] of Object.entries(headers)) copy.headers.set(name, value);
    return copy;
  }
}

export function withFrontDoor<F extends Fetch>(fetch: F): F {
  const frontDoor = async (request: Request, ...rest: never[]) => {
    const https = servedOverHttps(request);
    const refused = refuseUrl(request.url);
    if (refused) {
      return applyBaseHeaders(
        new Response(refused.status === 404 ? NOT_FOUND_HTML : 'URI Too Long\n', {
          status: refused.status,
          headers: {
            'content-type':
              refused.status === 404 ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8',
          },
        }),
        { https },
      );
    }
    return applyBaseHeaders(await fetch(request, ...rest), { https });
  };
  return frontDoor as F;
}
