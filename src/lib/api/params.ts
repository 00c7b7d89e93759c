// Owns what the content API's addresses and parameters may be (docs/decisions/0044): which
// endpoint a path names, which parameters each takes, their bounds, and the opaque cursor —
// every refusal in words, decided before anything is read.
import 'server-only';
import { isValidSlug } from '../content/slugs';

export const API_PREFIX = '/api/v1';
export const LIMIT_DEFAULT = 20;
export const LIMIT_MAX = 100;
/** Far past any cursor Folio makes (a slug of 80 and a date); short enough to refuse cheaply. */
const CURSOR_MAX = 400;
/** Quoted back in an error; longer names are cut. */
const ECHO_MAX = 40;

export type Collection = 'posts' | 'pages' | 'topics' | 'authors';
export type Endpoint =
  | { kind: 'list'; collection: Collection }
  | { kind: 'one'; collection: Collection; slug: string }
  | { kind: 'site' }
  | { kind: 'openapi' };

/** A refusal: the status and the words of the JSON error. */
export type ApiProblem = { status: 400 | 404; code: string; message: string };

const COLLECTIONS: readonly string[] = ['posts', 'pages', 'topics', 'authors'];

/** The endpoint `pathname` names, or a 404 in words. */
export function endpointOf(pathname: string): Endpoint | ApiProblem {
  const rest = pathname.startsWith(`${API_PREFIX}/`) ? pathname.slice(API_PREFIX.length + 1) : null;
  const segments = rest === null ? [] : rest.split('/');
  const [first = '', second] = segments;
  if (segments.length === 1 && first === 'site') return { kind: 'site' };
  if (segments.length === 1 && first === 'openapi.json') return { kind: 'openapi' };
  if (COLLECTIONS.includes(first)) {
    const collection = first as Collection;
    if (segments.length === 1) return { kind: 'list', collection };
    if (segments.length === 2 && second !== undefined && second !== '') {
      // No page, topic or author can be at a slug that is not one.
      if (!isValidSlug(second)) return notFound(collection, second);
      return { kind: 'one', collection, slug: second };
    }
  }
  return NO_SUCH_ENDPOINT;
}

export const NO_SUCH_ENDPOINT: ApiProblem = {
  status: 404,
  code: 'no_such_endpoint',
  message: `There is no endpoint at this address. The endpoints are described at ${API_PREFIX}/openapi.json.`,
};

const SINGULAR: Record<Collection, string> = {
  posts: 'published post',
  pages: 'published page',
  topics: 'topic with published posts',
  authors: 'author with published posts',
};

export function notFound(collection: Collection, slug: string): ApiProblem {
  return {
    status: 404,
    code: 'not_found',
    message: `There is no ${SINGULAR[collection]} at “${echo(slug)}”.`,
  };
}

function echo(text: string): string {
  return text.length > ECHO_MAX ? `${text.slice(0, ECHO_MAX)}…` : text;
}

function bad(code: string, message: string): ApiProblem {
  return { status: 400, code, message };
}

/** A listing's request, checked. */
export type ListingRequest = {
  collection: Collection;
  limit: number;
  /** The cursor's position: a date and an id (posts, pages) or a slug (topics, authors). */
  after: { at: string; id: number } | null;
  topic: string | null;
  author: string | null;
  /** ISO 8601 in UTC, as the store writes dates (so it compares as text). */
  updatedSince: string | null;
};

const LISTING_PARAMS: Record<Collection, readonly string[]> = {
  posts: ['limit', 'cursor', 'topic', 'author', 'updated_since'],
  pages: ['limit', 'cursor', 'updated_since'],
  topics: ['limit', 'cursor'],
  authors: ['limit', 'cursor'],
};

/** `2026-11-26`, `2026-11-26T10:00Z`, `2026-11-26T10:00:00.123+01:00`. */
const ISO_DATE =
  /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/**
 * Whether the text's leading `YYYY-MM-DD` is a day of the calendar: `Date.parse` moves
 * 2026-02-30 to March 2 instead of refusing it (hostile pass, issue 29).
 */
function realDay(text: string): boolean {
  const [year, month, day] = text.slice(0, 10).split('-').map(Number);
  if (year === undefined || month === undefined || day === undefined) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The parameters of a single item, the site or the description: none. */
export function checkNoParams(params: URLSearchParams): ApiProblem | null {
  for (const name of params.keys())
    return bad('unknown_parameter', `This address takes no parameters; “${echo(name)}” was given.`);
  return null;
}

/** A listing's parameters, or why they are refused. */
export function parseListing(
  collection: Collection,
  params: URLSearchParams,
): ListingRequest | ApiProblem {
  const allowed = LISTING_PARAMS[collection];
  const seen = new Set<string>();
  for (const name of params.keys()) {
    if (!allowed.includes(name))
      return bad(
        'unknown_parameter',
        `“${echo(name)}” is not a parameter of ${API_PREFIX}/${collection}; it takes ${allowed.join(', ')}.`,
      );
    if (seen.has(name)) return bad('repeated_parameter', `Give “${name}” once.`);
    seen.add(name);
  }
  const limitText = params.get('limit');
  let limit = LIMIT_DEFAULT;
  if (limitText !== null) {
    if (!/^[0-9]{1,3}$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > LIMIT_MAX)
      return bad('invalid_limit', `“limit” is a whole number from 1 to ${LIMIT_MAX}.`);
    limit = Number(limitText);
  }
  const topic = params.get('topic');
  const author = params.get('author');
  if (topic !== null && author !== null)
    return bad('conflicting_filters', 'A listing is of one topic or of one author, not both.');
  for (const [name, slug] of [
    ['topic', topic],
    ['author', author],
  ] as const)
    if (slug !== null && !isValidSlug(slug))
      return bad(
        `invalid_${name}`,
        `“${name}” is the address of ${name === 'author' ? 'an' : 'a'} ${name}: lower-case letters, digits and hyphens.`,
      );
  const sinceText = params.get('updated_since');
  let updatedSince: string | null = null;
  if (sinceText !== null) {
    if (/^\d{4}-\d{2}-\d{2}T[\d:.]+$/.test(sinceText))
      return bad(
        'invalid_updated_since',
        '“updated_since” with a time needs its zone: Z or an offset such as +01:00 (written %2B01:00 in an address).',
      );
    const parsed =
      ISO_DATE.test(sinceText) && realDay(sinceText) ? Date.parse(sinceText) : Number.NaN;
    if (!Number.isFinite(parsed))
      return bad(
        'invalid_updated_since',
        '“updated_since” is a real date in ISO 8601, such as 2026-11-26 or 2026-11-26T10:00:00Z.',
      );
    updatedSince = new Date(parsed).toISOString();
  }
  const cursorText = params.get('cursor');
  let after: ListingRequest['after'] = null;
  if (cursorText !== null) {
    const decoded = decodeCursor(cursorText, listingTag(collection, topic, author));
    if (decoded === null)
      return bad(
        'invalid_cursor',
        `This cursor was not made for this listing. Use “next_cursor” from the previous answer of the same listing, with the same topic or author.`,
      );
    after = decoded;
  }
  return { collection, limit, after, topic, author, updatedSince };
}

/** What a cursor is bound to: the listing and its topic or author (not limit nor dates). */
function listingTag(collection: Collection, topic: string | null, author: string | null): string {
  return topic !== null
    ? `${collection}/t/${topic}`
    : author !== null
      ? `${collection}/a/${author}`
      : collection;
}

/**
 * The cursor for a listing's next page: base64url of its tag and position. Not signed: it
 * names a place in public data, so a forged one can only ask for another place in it; it is
 * checked as strictly as any parameter.
 */
export function encodeCursor(
  request: Pick<ListingRequest, 'collection' | 'topic' | 'author'>,
  key: { at: string; id: number },
): string {
  const tag = listingTag(request.collection, request.topic, request.author);
  return Buffer.from(JSON.stringify([tag, key.at, key.id])).toString('base64url');
}

function decodeCursor(text: string, tag: string): { at: string; id: number } | null {
  if (text.length > CURSOR_MAX || !/^[A-Za-z0-9_-]+$/.test(text)) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length !== 3) return null;
  const [madeFor, at, id] = value as unknown[];
  if (madeFor !== tag || typeof at !== 'string' || typeof id !== 'number') return null;
  if (!Number.isSafeInteger(id) || id < 1) return null;
  const bySlug = tag.startsWith('topics') || tag.startsWith('authors');
  const validAt = bySlug
    ? isValidSlug(at)
    : // A stored date (ISO 8601 as the store writes it, or as an import gave it).
      /^[0-9][0-9T:.+Z-]{9,39}$/.test(at) && realDay(at) && Number.isFinite(Date.parse(at));
  return validAt ? { at, id } : null;
}
