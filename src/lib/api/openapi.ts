// Owns the content API's OpenAPI 3.1 description (served at /api/v1/openapi.json), written by
// hand beside the shapes it describes (shapes.ts); a test checks every endpoint's real answers
// against it (tests/integration/content-api-openapi.test.ts).
import { API_PREFIX, LIMIT_DEFAULT, LIMIT_MAX } from './params';

const str = { type: 'string' } as const;
const dateTime = { type: 'string', format: 'date-time' } as const;
const uri = { type: 'string', format: 'uri' } as const;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function closed(properties: Record<string, unknown>, nullable: string[] = []) {
  return {
    type: 'object',
    additionalProperties: false,
    required: Object.keys(properties),
    properties: Object.fromEntries(
      Object.entries(properties).map(([name, schema]) => [
        name,
        nullable.includes(name) ? { oneOf: [schema, { type: 'null' }] } : schema,
      ]),
    ),
  };
}

const link = closed({ slug: str, name: str, url: uri, api: uri });
const image = closed({
  url: uri,
  width: { type: 'integer', minimum: 0 },
  height: { type: 'integer', minimum: 0 },
  alt: str,
});

const schemas = {
  Error: closed({ error: closed({ code: str, message: str }) }),
  Item: closed({
    slug: str,
    kind: { enum: ['post', 'page'] },
    url: uri,
    api: uri,
    title: str,
    summary: str,
    html: {
      type: 'string',
      description: 'The published, sanitised HTML; addresses in it are site-relative.',
    },
    published_at: { ...dateTime, description: 'When it was first published.' },
    updated_at: { ...dateTime, description: 'When its current text was published.' },
    authors: { type: 'array', items: link, description: 'A post’s byline; none for a page.' },
    topics: { type: 'array', items: link, description: 'A post’s topics; none for a page.' },
    image: {
      ...closed({ ...image.properties, generated: { type: 'boolean' } }),
      description:
        'The share image (og:image): chosen, first in the text, the site’s, or a generated card.',
    },
    seo: closed({
      title: str,
      description: str,
      canonical: str,
      hidden_from_search_engines: {
        type: 'boolean',
        description: 'Asks search engines not to index it; it is public all the same.',
      },
    }),
  }),
  Topic: closed({ slug: str, name: str, url: uri, api: uri, posts: uri, introduction_html: str }),
  Author: closed(
    {
      slug: str,
      name: str,
      url: uri,
      api: uri,
      posts: uri,
      bio: str,
      photo: image,
      links: { type: 'array', items: uri },
    },
    ['photo'],
  ),
  Site: closed(
    {
      title: str,
      description: str,
      language: str,
      url: uri,
      accent: { type: 'string', pattern: '^#[0-9a-f]{6}$' },
      logo: image,
      feed: uri,
      api: uri,
    },
    ['logo'],
  ),
};

const listOf = (item: string) =>
  closed(
    {
      items: { type: 'array', items: ref(item) },
      next_cursor: {
        ...str,
        description: 'Give it as `cursor` for the next page; null at the end.',
      },
      next: { ...uri, description: 'The next page’s address; null at the end.' },
    },
    ['next_cursor', 'next'],
  );

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: ref('Error') } },
});
/** The rate limit's fields (draft-ietf-httpapi-ratelimit-headers-09), on every counted answer. */
const RATE_HEADERS = {
  'RateLimit-Policy': {
    description:
      '`"address"` (no key: per client address) or `"key"`, with `q` requests per `w` seconds.',
    schema: str,
  },
  RateLimit: {
    description: 'Of that policy: `r` requests left in this window, which ends in `t` seconds.',
    schema: str,
  },
};
const ok = (schema: unknown, description: string) => ({
  description,
  headers: {
    ETag: { schema: str },
    'Cache-Control': { schema: str },
    'Access-Control-Allow-Origin': { schema: { const: '*' } },
    ...RATE_HEADERS,
  },
  content: { 'application/json': { schema } },
});
const notModified = {
  description: 'Your copy (If-None-Match) is current. Counted as a request.',
  headers: RATE_HEADERS,
};
/** Every endpoint's answers to a key that is not one, and to a client past its limit. */
const ACCESS_RESPONSES = {
  '401': {
    description:
      'The Authorization header is not a key, or the key is unknown or revoked (never answered as if no key had been sent).',
    headers: { 'WWW-Authenticate': { schema: { const: 'Bearer error="invalid_token"' } } },
    content: { 'application/json': { schema: ref('Error') } },
  },
  '429': {
    description: 'This address (no key) or key has made its requests for this window.',
    headers: {
      'Retry-After': { description: 'Seconds until the window ends.', schema: str },
      ...RATE_HEADERS,
    },
    content: { 'application/json': { schema: ref('Error') } },
  },
};

const query = (name: string, description: string, schema: unknown = str) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
});
const LIMIT = query('limit', `Items per page, ${LIMIT_DEFAULT} by default.`, {
  type: 'integer',
  minimum: 1,
  maximum: LIMIT_MAX,
});
const CURSOR = query('cursor', 'The `next_cursor` of the previous page of the same listing.');
const SINCE = query(
  'updated_since',
  'Only those whose current text was published at or after this date (ISO 8601).',
  {
    type: 'string',
  },
);
const SLUG = { name: 'slug', in: 'path', required: true, schema: str };

function listing(item: string, what: string, parameters: unknown[]) {
  return {
    get: {
      summary: what,
      parameters,
      responses: {
        '200': ok(listOf(item), what),
        '304': notModified,
        '400': errorResponse('A parameter is not one this listing takes, or not in its form.'),
        '404': errorResponse('No topic or author with published posts is at the slug given.'),
        ...ACCESS_RESPONSES,
      },
    },
  };
}

function single(item: string, what: string) {
  return {
    get: {
      summary: what,
      parameters: [SLUG],
      responses: {
        '200': ok(ref(item), what),
        '304': notModified,
        '400': errorResponse('This address takes no parameters.'),
        '404': errorResponse('Nothing visitors can see is at this slug.'),
        ...ACCESS_RESPONSES,
      },
    },
  };
}

/** The description, with the server at `origin`. */
export function openApiDocument(origin: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Folio content API',
      version: '1.0.0',
      description:
        'Published content only, as visitors see it: never a draft, a scheduled text before its time, or anything only editors see. Read-only, CORS for any origin. Without a key a client address may make a modest number of requests a window; an API key (made by the site’s Administrators, sent as `Authorization: Bearer folio_…`, never in the address) raises it for the key. Every request but a preflight counts, a 304 too. A key changes the limit, never the answer.',
    },
    servers: [{ url: `${origin}${API_PREFIX}` }],
    // No key (the empty requirement) or a key: both read the same content.
    security: [{}, { apiKey: [] }],
    paths: {
      '/posts': listing('Item', 'Published posts, newest first by first publish.', [
        LIMIT,
        CURSOR,
        query('topic', 'Only posts of the topic at this slug.'),
        query('author', 'Only posts by the author at this slug.'),
        SINCE,
      ]),
      '/posts/{slug}': single('Item', 'One published post.'),
      '/pages': listing('Item', 'Published pages (not posts), newest first by last publish.', [
        LIMIT,
        CURSOR,
        SINCE,
      ]),
      '/pages/{slug}': single('Item', 'One published page (`home` is the home page).'),
      '/topics': listing('Topic', 'Topics with published posts, by slug.', [LIMIT, CURSOR]),
      '/topics/{slug}': single('Topic', 'One topic with published posts.'),
      '/authors': listing('Author', 'Authors with published posts, by slug.', [LIMIT, CURSOR]),
      '/authors/{slug}': single('Author', 'One author with published posts.'),
      '/site': {
        get: {
          summary: 'The site as its pages show it.',
          responses: {
            '200': ok(ref('Site'), 'The site.'),
            '304': notModified,
            ...ACCESS_RESPONSES,
          },
        },
      },
    },
    components: {
      schemas,
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An API key, `folio_` and 43 characters: a higher rate limit, counted per key.',
        },
      },
    },
  };
}
