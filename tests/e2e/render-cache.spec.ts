import { expect, test } from './fixtures';

test('a publish (from another process) is visible on the next request, HTML and page data', async ({
  request,
  seedPage,
  store,
}) => {
  await seedPage({ slug: 'e2e-cache', title: 'Cache page', body: 'First published text.' });
  const first = await request.get('/e2e-cache');
  expect(await first.text()).toContain('First published text.');
  const again = await request.get('/e2e-cache');
  expect(again.headers()['x-folio-cache']).toBe('hit');
  expect(again.headers()['cache-control']).toBe(
    'public, max-age=0, s-maxage=60, stale-while-revalidate=600',
  );
  await request.get('/RSC/R/e2e-cache.txt');

  store.putPage(
    { slug: 'e2e-cache', title: 'Cache page', summary: '', body: 'Second published text.' },
    { publish: true },
  );
  const html = await (await request.get('/e2e-cache')).text();
  expect(html).toContain('Second published text.');
  expect(html).not.toContain('First published text.');
  const data = await (await request.get('/RSC/R/e2e-cache.txt')).text();
  expect(data).toContain('Second published text.');
});

test('a matching ETag gets 304 with no body', async ({ request }) => {
  const first = await request.get('/about');
  const etag = first.headers().etag ?? '';
  expect(etag).toMatch(/^".+"$/);
  const second = await request.get('/about', { headers: { 'if-none-match': etag } });
  expect(second.status()).toBe(304);
  expect(await second.text()).toBe('');
});

test('preview and signed-in responses never come from the cache, and drafts never enter it', async ({
  page,
  request,
  signIn,
  seedPage,
  store,
}) => {
  await seedPage({ slug: 'e2e-cache-draft', title: 'Draft cache page', body: 'Public words.' });
  store.putPage({
    slug: 'e2e-cache-draft',
    title: 'Draft cache page',
    summary: '',
    body: 'SECRET-CACHE-DRAFT words.',
  });
  await signIn(page);
  const preview = await page.goto('/preview/e2e-cache-draft');
  expect(preview?.headers()['x-folio-cache']).toBeUndefined();
  expect(preview?.headers()['cache-control']).toBe('private, no-store');
  // Signed in, the public page is rendered fresh and marked private...
  const signedIn = await page.goto('/e2e-cache-draft');
  expect(signedIn?.headers()['x-folio-cache']).toBeUndefined();
  expect(signedIn?.headers()['cache-control']).toBe('private, no-store');
  // ...and whatever visitors get afterwards holds no draft text.
  for (let i = 0; i < 2; i++) {
    for (const path of ['/e2e-cache-draft', '/RSC/R/e2e-cache-draft.txt']) {
      expect(await (await request.get(path)).text()).not.toContain('SECRET-CACHE-DRAFT');
    }
  }
});
