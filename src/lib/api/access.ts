// Owns who may ask the content API how often (issue 29, docs/decisions/0047): a request with no
// key is counted against its client address (API_RATE_LIMIT a window), one with a key against
// the key (API_KEY_RATE_LIMIT). A key is sent as `Authorization: Bearer folio_…` and nowhere
// else: an address is logged, kept by caches and sent on as Referer, so `?key=` is refused in
// words. A key that is not one, unknown or revoked is a 401 — never answered as if no key had
// been sent, or a client would not learn that its key stopped working until it hit the lower
// limit — and is counted against the address, so guessing keys is as limited as asking.
// Every counted answer says its limit in the RateLimit-Policy and RateLimit fields of
// draft-ietf-httpapi-ratelimit-headers-09; a refusal is a 429 with Retry-After.
import 'server-only';
import { findApiKey, hashApiKey, KEY_SHAPE, markApiKeysUsed } from '../api-keys/api-keys';
import { databaseTroubleOf } from '../content/errors';
import { type Database, getDatabase } from '../data/db';
import { getEnv } from '../runtime/env';
import { processSingleton } from '../runtime/process-singleton';
import { problemResponse } from './answers';
import { addressBucket, createRateLimiter, type RateDecision } from './rate-limit';

/** How long an instance trusts what it read of a key: a revoked key stops within this. */
export const KEY_CACHE_MS = 5_000;
/** How often an instance adds its counts to the database. */
export const FLUSH_EVERY_MS = 1_000;
/** A key's "last used" is written at most this often by an instance. */
export const LAST_USED_EVERY_MS = 60_000;
/** The most keys an instance remembers (each is a few dozen bytes; a site has a handful). */
const KEY_CACHE_MAX = 1_000;

export type AccessOptions = {
  database?: () => Promise<Database>;
  addressLimit?: number;
  keyLimit?: number;
  windowSeconds?: number;
  now?: () => number;
};

/** Either the answer to send instead (401, 429, 400, 503), or the headers to add to the one sent. */
export type Access = { refusal: Response } | { headers: Record<string, string> };

/** The fields of draft-ietf-httpapi-ratelimit-headers-09 for one decision. */
function rateHeaders(policy: 'address' | 'key', windowSeconds: number, decision: RateDecision) {
  return {
    'ratelimit-policy': `"${policy}";q=${decision.limit};w=${windowSeconds}`,
    ratelimit: `"${policy}";r=${decision.remaining};t=${decision.resetSeconds}`,
  };
}

export function createApiAccess({
  database = getDatabase,
  addressLimit = getEnv().API_RATE_LIMIT,
  keyLimit = getEnv().API_KEY_RATE_LIMIT,
  windowSeconds = getEnv().API_RATE_WINDOW_SECONDS,
  now = Date.now,
}: AccessOptions = {}) {
  const limiter = createRateLimiter({ database, windowSeconds, now });
  const keys = new Map<string, { id: number; revoked: boolean; until: number }>();
  /** Keys used since the last flush, and when each instance last wrote one's "last used". */
  const used = new Set<number>();
  const lastMarked = new Map<number, number>();

  async function keyOf(key: string): Promise<{ id: number; revoked: boolean } | null> {
    const hash = hashApiKey(key);
    const known = keys.get(hash);
    if (known && known.until > now()) return known;
    const found = await findApiKey(await database(), key);
    // Unknown keys are not remembered: each is one read, and counted against its address.
    if (found) {
      if (keys.size >= KEY_CACHE_MAX) keys.clear();
      keys.set(hash, { ...found, until: now() + KEY_CACHE_MS });
    }
    return found;
  }

  async function flush(): Promise<void> {
    await limiter.flushAll();
    const at = now();
    const due = [...used].filter((id) => at - (lastMarked.get(id) ?? 0) >= LAST_USED_EVERY_MS);
    used.clear();
    if (due.length === 0) return;
    for (const id of due) lastMarked.set(id, at);
    try {
      await markApiKeysUsed(await database(), due, new Date(at).toISOString());
    } catch {
      // "Last used" is a hint for the screen: tried again the next minute.
      for (const id of due) lastMarked.delete(id);
    }
  }

  function refused(policy: 'address' | 'key', decision: RateDecision): Response {
    return problemResponse(
      {
        status: 429,
        code: 'rate_limited',
        message:
          policy === 'key'
            ? `This key has made its ${decision.limit} requests for this ${windowSeconds}-second window; try again in ${decision.resetSeconds} s.`
            : `This address has made its ${decision.limit} requests for this ${windowSeconds}-second window without a key; try again in ${decision.resetSeconds} s, or ask the site for an API key.`,
      },
      {
        'retry-after': String(decision.resetSeconds),
        ...rateHeaders(policy, windowSeconds, decision),
      },
    );
  }

  /**
   * Counts a request against its address; `otherwise` is the answer to a counted request that
   * is refused all the same (a bad key, a key in the address), given the RateLimit fields too.
   */
  async function byAddress(
    clientAddress: string,
    otherwise?: (headers: Record<string, string>) => Response,
  ): Promise<Access> {
    const decision = await limiter.take(`a ${addressBucket(clientAddress)}`, addressLimit);
    if (!decision.allowed) return { refusal: refused('address', decision) };
    const headers = rateHeaders('address', windowSeconds, decision);
    if (otherwise) return { refusal: otherwise(headers) };
    return { headers };
  }

  const badKey = (message: string) => (headers: Record<string, string>) =>
    problemResponse(
      { status: 401, code: 'invalid_key', message },
      // RFC 6750: the scheme the API takes, and that the token was the trouble.
      { 'www-authenticate': 'Bearer error="invalid_token"', ...headers },
    );

  return {
    /** Counts a request (not a preflight: the caller answers those first) or refuses it. */
    async check(request: Request, url: URL, clientAddress: string): Promise<Access> {
      if (url.searchParams.has('key'))
        return byAddress(clientAddress, (headers) =>
          problemResponse(
            {
              status: 400,
              code: 'key_in_address',
              message:
                'Send an API key in the Authorization header (Authorization: Bearer folio_…), never in the address: addresses are logged and kept by caches. Make a new key and revoke this one.',
            },
            headers,
          ),
        );
      const authorization = request.headers.get('authorization');
      if (authorization === null) return byAddress(clientAddress);
      const token = /^Bearer[ ]+(\S+)[ ]*$/i.exec(authorization)?.[1];
      if (token === undefined || !KEY_SHAPE.test(token))
        return byAddress(
          clientAddress,
          badKey(
            'The Authorization header is not an API key: send `Authorization: Bearer folio_…`, or no Authorization header for the limit without a key.',
          ),
        );
      let key: { id: number; revoked: boolean } | null;
      try {
        key = await keyOf(token);
      } catch (error) {
        const trouble = databaseTroubleOf(error);
        if (!trouble) throw error;
        return {
          refusal: problemResponse(
            {
              status: 503,
              code: trouble === 'busy' ? 'busy' : 'unavailable',
              message: 'The API key cannot be checked right now; try again in a moment.',
            },
            { 'retry-after': '5' },
          ),
        };
      }
      if (key === null || key.revoked)
        return byAddress(
          clientAddress,
          badKey(
            key === null
              ? 'This API key is not known: check that it was copied whole.'
              : 'This API key was revoked: ask the site for a new one.',
          ),
        );
      const decision = await limiter.take(`k ${key.id}`, keyLimit);
      if (!decision.allowed) return { refusal: refused('key', decision) };
      used.add(key.id);
      return { headers: rateHeaders('key', windowSeconds, decision) };
    },

    flush,

    /** Starts adding counts to the database every second (the server's one instance). */
    start(): () => void {
      const timer = setInterval(() => {
        void flush().catch(() => undefined);
      }, FLUSH_EVERY_MS);
      timer.unref?.();
      return () => clearInterval(timer);
    },
  };
}

export type ApiAccess = ReturnType<typeof createApiAccess>;

/** The server's one: counting starts with the first request. */
export function apiAccess(): ApiAccess {
  return processSingleton('api-access', () => {
    const access = createApiAccess();
    access.start();
    return access;
  });
}
