// Owns what may not leave the process in an error report or a trace: share-link tokens (in any
// URL, header or message, e.g. a referer) and Folio's cookies. Used by the server and browser
// SDKs before anything is sent (beforeSend, beforeSendSpan, beforeBreadcrumb).
import { DEVICE_COOKIE, SESSION_COOKIE, SHARE_PARAM } from '../http/routes';

export const FILTERED = '[Filtered]';

const SECRETS = new RegExp(
  [
    // ?share=<token> or &share=<token>, raw or percent-encoded (a URL inside a URL). Tokens
    // are base64url: they end at the first character base64url does not use.
    `((?:[?&;]|%3[Ff]|%26)${SHARE_PARAM}(?:=|%3[Dd]))[A-Za-z0-9_.~-]+`,
    // Folio's cookies, wherever a Cookie header was copied to.
    `((?:${SESSION_COOKIE}|${DEVICE_COOKIE})=)[^;\\s"',]+`,
  ].join('|'),
  'g',
);

export function scrubText(text: string): string {
  return text.replace(
    SECRETS,
    (_match, share?: string, cookie?: string) => `${share ?? cookie}${FILTERED}`,
  );
}

/** A copy of `value` with every string scrubbed (objects and arrays walked, depth-limited). */
export function scrubSecrets<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return scrubText(value) as T;
  if (depth > 12 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => scrubSecrets(item, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>))
    out[key] = scrubSecrets(item, depth + 1);
  return out as T;
}
