// Owns content negotiation for the responses Folio answers from memory (cached pages, hashed
// assets): which content coding to send, and when a conditional request gets a 304. Both are
// RFC 9110 as implemented by jshttp's negotiator and fresh, the libraries Express relies on
// (docs/decisions/0010).
import 'server-only';
import fresh from 'fresh';
import Negotiator from 'negotiator';

export type Encoding = 'br' | 'gzip' | 'identity';

const PREFERENCE: Encoding[] = ['br', 'gzip', 'identity'];
const WITHOUT_BROTLI: Encoding[] = ['gzip', 'identity'];

// negotiator 1.x breaks ties by the server's preference (`preferred`); @types/negotiator still
// describes 0.6, which had no options.
type EncodingNegotiator = {
  encoding(
    available: readonly string[],
    options: { preferred: readonly string[] },
  ): string | undefined;
};

// A busy site sees a handful of distinct Accept-Encoding values: remember each answer, so a
// cache hit does not parse the header again. Bounded; an unusual value is simply parsed.
const MEMO_LIMIT = 256;
const memoAll = new Map<string, Encoding>();
const memoNoBrotli = new Map<string, Encoding>();

/**
 * The coding to send, by the client's q-values, preferring brotli on a tie. `compressible`
 * false offers only identity; `brotli` false offers gzip and identity (a copy not made yet).
 * With nothing acceptable, identity (RFC 9110 §12.5.3).
 */
export function chooseEncoding(
  acceptEncoding: string | null,
  compressible = true,
  brotli = true,
): Encoding {
  if (!compressible) return 'identity';
  const header = acceptEncoding ?? '';
  const memo = brotli ? memoAll : memoNoBrotli;
  const known = memo.get(header);
  if (known) return known;
  const offered = brotli ? PREFERENCE : WITHOUT_BROTLI;
  const negotiator = new Negotiator({
    headers: { 'accept-encoding': header },
  }) as unknown as EncodingNegotiator;
  const chosen =
    (negotiator.encoding(offered, { preferred: offered }) as Encoding | undefined) ?? 'identity';
  if (memo.size < MEMO_LIMIT) memo.set(header, chosen);
  return chosen;
}

/** True when the client's copy (If-None-Match: a tag, a list, W/ tags or `*`) is current. */
export function clientCopyIsCurrent(request: Request, etag: string): boolean {
  const ifNoneMatch = request.headers.get('if-none-match');
  if (ifNoneMatch === null) return false;
  const cacheControl = request.headers.get('cache-control');
  return fresh(
    { 'if-none-match': ifNoneMatch, ...(cacheControl ? { 'cache-control': cacheControl } : {}) },
    { etag },
  );
}
