// Owns the content API's answers (docs/decisions/0044): `/api/v1/…`, answered by the front door
// before Waku. Parameters are checked first (a 400 in words reads nothing); then each answer is
// built once per content version, address and origin and tagged with that version
// (file-cache.ts), so a client whose copy of an address that is always there (a listing, the
// site) is current gets its 304 before anything is read (one that may name nothing, a slug or
// a filter, is looked up first: a 404 is never a 304), and the first request after a publish
// — on any instance, as they share the version — is built again. Cookies are never read: every
// visitor, signed in or not, gets the same answer, from any origin (CORS `*`). An API key
// (Authorization: Bearer) changes how many requests a client may make, never the answer
// (access.ts, docs/decisions/0047): every request but a preflight is counted, a 304 and a
// cached answer too — they cost little, but they are requests.
import 'server-only';
import type { ListingPage, PublishedItem } from '../content/api-reads';
import { type ContentStore, contentStore, databaseTroubleOf } from '../content/content';
import { PUBLIC_CACHE_HEADERS, REVALIDATE_EACH_TIME } from '../http/cache-headers';
import { type BuiltFile, createFileCache, type FileCache } from '../http/file-cache';
import { reportUnexpectedError } from '../observability/errors';
import { getEnv } from '../runtime/env';
import { processSingleton } from '../runtime/process-singleton';
import { type ApiAccess, apiAccess } from './access';
import { API_METHODS, apiRefusal, CORS_HEADERS, JSON_TYPE, problemResponse } from './answers';
import { openApiDocument } from './openapi';
import {
  API_PREFIX,
  type ApiProblem,
  checkNoParams,
  type Endpoint,
  encodeCursor,
  endpointOf,
  LIMIT_DEFAULT,
  type ListingRequest,
  notFound,
  parseListing,
} from './params';
import { authorsJson, itemsJson, siteJson, topicJson } from './shapes';

function isProblem(value: object): value is ApiProblem {
  return 'status' in value && 'code' in value;
}

const json = (value: unknown): BuiltFile => ({
  body: `${JSON.stringify(value)}\n`,
  contentType: JSON_TYPE,
});

export type ContentApiOptions = {
  store?: () => ContentStore;
  cache?: FileCache;
  access?: () => ApiAccess;
};

/** The rate limit's fields on an answer (a built one's headers may be shared: copied then). */
function withHeaders(response: Response, headers: Record<string, string>): Response {
  try {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    for (const [name, value] of Object.entries(headers)) copy.headers.set(name, value);
    return copy;
  }
}

export function createContentApi({
  store = contentStore,
  cache = processSingleton('api-cache', () =>
    createFileCache({
      enabled: getEnv().FOLIO_RENDER_CACHE !== 'off',
      maxEntries: 256,
      maxBytes: 32 * 1024 * 1024,
    }),
  ),
  access = apiAccess,
}: ContentApiOptions = {}) {
  async function listing(request: ListingRequest, origin: string): Promise<BuiltFile> {
    const content = store();
    const { collection, limit, after } = request;
    if (collection === 'topics' || collection === 'authors') {
      const afterSlug = after?.at ?? null;
      const found =
        collection === 'topics'
          ? await content.apiTopics(afterSlug, limit)
          : await content.apiAuthors(afterSlug, limit);
      const items =
        collection === 'topics'
          ? (found as Awaited<ReturnType<ContentStore['apiTopics']>>).items.map((t) =>
              topicJson(t, origin),
            )
          : await authorsJson(
              (found as Awaited<ReturnType<ContentStore['apiAuthors']>>).items,
              origin,
            );
      return json(page(items, found.next, request, origin));
    }
    let found: ListingPage<PublishedItem>;
    if (collection === 'pages') {
      found = await content.apiPages({ after, limit, updatedSince: request.updatedSince });
    } else {
      // A topic or author visitors cannot see has no listing, as it has no page (a 404).
      const subject =
        request.topic !== null
          ? await content.getPublicTopic(request.topic)
          : request.author !== null
            ? await content.getPublicAuthor(request.author)
            : null;
      if ((request.topic !== null || request.author !== null) && !subject) return null;
      found = await content.apiPosts({
        listing:
          subject === null
            ? null
            : request.topic !== null
              ? { topicId: subject.id }
              : { authorId: subject.id },
        after,
        limit,
        updatedSince: request.updatedSince,
      });
    }
    const settings = await content.getSiteSettings();
    const items = await itemsJson(found.items, { store: content, settings, origin });
    return json(page(items, found.next, request, origin));
  }

  function page(
    items: unknown[],
    next: { at: string; id: number } | null,
    request: ListingRequest,
    origin: string,
  ) {
    const cursor = next === null ? null : encodeCursor(request, next);
    let nextUrl: string | null = null;
    if (cursor !== null) {
      const params = new URLSearchParams();
      if (request.limit !== LIMIT_DEFAULT) params.set('limit', String(request.limit));
      if (request.topic !== null) params.set('topic', request.topic);
      if (request.author !== null) params.set('author', request.author);
      if (request.updatedSince !== null) params.set('updated_since', request.updatedSince);
      params.set('cursor', cursor);
      nextUrl = `${origin}${API_PREFIX}/${request.collection}?${params}`;
    }
    return { items, next_cursor: cursor, next: nextUrl };
  }

  async function one(
    endpoint: Extract<Endpoint, { kind: 'one' }>,
    origin: string,
  ): Promise<BuiltFile> {
    const content = store();
    const { collection, slug } = endpoint;
    if (collection === 'topics') {
      const topic = await content.getPublicTopic(slug);
      return topic ? json(topicJson(topic, origin)) : null;
    }
    if (collection === 'authors') {
      const author = await content.getPublicAuthor(slug);
      return author ? json((await authorsJson([author], origin))[0]) : null;
    }
    // The public site's own read: a draft's text never reaches it (read-model.ts getPage).
    const view = await content.getPage(slug, { draft: false });
    if (!view || view.publishedAt === null) return null;
    if ((view.kind === 'post') !== (collection === 'posts')) return null;
    const item: PublishedItem = {
      id: view.id,
      slug: view.slug,
      kind: view.kind,
      title: view.title,
      summary: view.summary,
      bodyHtml: view.bodyHtml,
      firstPublishedAt: view.firstPublishedAt ?? view.publishedAt,
      publishedAt: view.publishedAt,
      topicIds: view.topicIds,
      authorIds: view.authorIds,
      seo: view.seo,
    };
    const settings = await content.getSiteSettings();
    return json((await itemsJson([item], { store: content, settings, origin }))[0]);
  }

  async function build(endpoint: Endpoint, params: URLSearchParams, origin: string) {
    switch (endpoint.kind) {
      case 'site':
        return json(await siteJson(await store().getSiteSettings(), origin));
      case 'openapi':
        return json(openApiDocument(origin));
      case 'one':
        return one(endpoint, origin);
      case 'list': {
        const request = parseListing(endpoint.collection, params);
        if (isProblem(request)) throw new Error('parameters are checked before the build');
        return listing(request, origin);
      }
    }
  }

  async function answer(request: Request, url: URL, origin: string): Promise<Response> {
    const endpoint = endpointOf(url.pathname);
    if (isProblem(endpoint)) return problemResponse(endpoint);
    const params = url.searchParams;
    const problem =
      endpoint.kind === 'list'
        ? (() => {
            const parsed = parseListing(endpoint.collection, params);
            return isProblem(parsed) ? parsed : null;
          })()
        : checkNoParams(params);
    if (problem) return problemResponse(problem);
    // The key: the origin the links are made for, the path, the parameters as given (checked
    // above: each once, of the endpoint's own).
    const key = `api ${origin} ${url.pathname}?${[...params]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k}=${v}`)
      .join('&')}`;
    try {
      const served = await cache.serve(
        request,
        key,
        () => build(endpoint, params, origin),
        { ...PUBLIC_CACHE_HEADERS, ...CORS_HEADERS },
        // A slug or a filter may name nothing: then it is looked up before any 304.
        {
          alwaysThere:
            endpoint.kind === 'site' ||
            endpoint.kind === 'openapi' ||
            (endpoint.kind === 'list' && !params.has('topic') && !params.has('author')),
        },
      );
      if (served.status !== 404) return served;
      await served.arrayBuffer();
      // A renamed page's, topic's or author's old address follows it, as on the site. Looked up
      // only for an answer that is not there: no cost to the rest.
      const moved = await movedTo(store(), endpoint, params);
      if (moved !== null)
        return new Response(null, {
          status: 301,
          // Checked again each time, like the site's 301: a rename can be undone.
          headers: {
            location: `${origin}${moved}`,
            'cache-control': REVALIDATE_EACH_TIME,
            ...CORS_HEADERS,
          },
        });
      return problemResponse(notFoundOf(endpoint, params));
    } catch (error) {
      const trouble = databaseTroubleOf(error);
      if (trouble)
        return problemResponse({
          status: 503,
          code: trouble === 'busy' ? 'busy' : 'unavailable',
          message: 'The content cannot be read right now; try again in a moment.',
        });
      const digest = reportUnexpectedError(error, { route: url.pathname, where: 'content api' });
      return problemResponse({
        status: 500,
        code: 'internal',
        message: `Something went wrong on the server (reference ${digest}).`,
      });
    }
  }

  /**
   * Answers a request for `/api` or below; `origin` is SITE_URL or the request's own, and
   * `clientAddress` the front door's (TRUST_PROXY included), what a request without a key is
   * counted against. `refused` is the front door's refusal of the address (front-door.ts
   * refuseUrl): counted all the same, then answered.
   */
  return async function contentApi(
    request: Request,
    url: URL,
    origin: string,
    clientAddress: string,
    refused?: 404 | 414,
  ): Promise<Response> {
    // A preflight is the browser's, not the client's request: never counted.
    if (request.method === 'OPTIONS')
      return new Response(null, {
        status: 204,
        headers: {
          ...CORS_HEADERS,
          'access-control-allow-methods': API_METHODS,
          'access-control-allow-headers': 'Authorization, If-None-Match, Cache-Control',
          'access-control-max-age': '86400',
          'cache-control': 'public, max-age=86400',
        },
      });
    let allowed: Awaited<ReturnType<ApiAccess['check']>>;
    try {
      allowed = await access().check(request, url, clientAddress);
    } catch (error) {
      const digest = reportUnexpectedError(error, { route: url.pathname, where: 'content api' });
      return problemResponse({
        status: 500,
        code: 'internal',
        message: `Something went wrong on the server (reference ${digest}).`,
      });
    }
    if ('refusal' in allowed) return allowed.refusal;
    if (refused) return withHeaders(apiRefusal(refused), allowed.headers);
    return withHeaders(await answer(request, url, origin), allowed.headers);
  };
}

/**
 * The API address (path and query) an old slug's answer moved to, or null. The site's rules,
 * not a second one: a page's (read-model.ts findRedirect, then only to one of the same kind),
 * a topic's (renamedTopicSlug) and an author's (renamedAuthorSlug), as the feed follows them.
 */
async function movedTo(
  content: ContentStore,
  endpoint: Endpoint,
  params: URLSearchParams,
): Promise<string | null> {
  if (endpoint.kind === 'one') {
    const { collection, slug } = endpoint;
    let now: string | null;
    if (collection === 'topics') now = await content.renamedTopicSlug(slug);
    else if (collection === 'authors') now = await content.renamedAuthorSlug(slug);
    else {
      now = await content.findRedirect(slug);
      const view = now === null ? null : await content.getPage(now, { draft: false });
      if (!view || view.publishedAt === null || (view.kind === 'post') !== (collection === 'posts'))
        now = null;
    }
    return now === null ? null : `${API_PREFIX}/${collection}/${now}`;
  }
  if (endpoint.kind !== 'list') return null;
  const topic = params.get('topic');
  const author = params.get('author');
  const [name, now] =
    topic !== null
      ? ['topic', await content.renamedTopicSlug(topic)]
      : author !== null
        ? ['author', await content.renamedAuthorSlug(author)]
        : ['', null];
  if (now === null) return null;
  const moved = new URLSearchParams(params);
  moved.set(name, now);
  // A cursor is bound to its listing's slug: the one for the new slug, at the same place.
  const request = parseListing(endpoint.collection, params);
  if (!isProblem(request) && request.after !== null)
    moved.set('cursor', encodeCursor({ ...request, [name]: now } as ListingRequest, request.after));
  return `${API_PREFIX}/${endpoint.collection}?${moved}`;
}

/** Why a built answer was "nothing there", in words. */
function notFoundOf(endpoint: Endpoint, params: URLSearchParams): ApiProblem {
  if (endpoint.kind === 'one') return notFound(endpoint.collection, endpoint.slug);
  const topic = params.get('topic');
  if (topic !== null) return notFound('topics', topic);
  return notFound('authors', params.get('author') ?? '');
}

export type ContentApi = ReturnType<typeof createContentApi>;
