import { beforeAll, describe, expect, test } from 'bun:test';
import { requestLevelApp } from '../../../../tests/request-level';
import { contentStore } from '../../content/content';
import { renamedPages } from './renamed-pages';

const app = requestLevelApp([renamedPages], (c) => c.text(`page ${new URL(c.req.url).pathname}`));

beforeAll(async () => {
  const store = contentStore();
  const page = (slug: string) => ({ slug, title: slug, summary: '', body: slug });
  await store.putPage(page('moved'), { publish: true });
  await store.renameSlug('moved', 'moved-here');
  await store.putPage(page('taken'), { publish: true });
  await store.renameSlug('taken', 'taken-elsewhere');
  await store.putPage(page('taken'), { publish: true });
  await store.putPage(page('draft-owner'), { publish: true });
  await store.renameSlug('draft-owner', 'draft-owner-2');
  await store.putPage(page('draft-owner'));
});

describe('renamedPages', () => {
  test('an old slug answers 301 to the current one, keeps the query, and is not cached', async () => {
    for (const method of ['GET', 'HEAD']) {
      const response = await app('/moved?ref=x', { method });
      expect(response.status).toBe(301);
      expect(response.headers.get('location')).toBe('/moved-here?ref=x');
      expect(response.headers.get('cache-control')).toBe('no-cache');
    }
  });

  test('a page that holds the slug now wins over the history', async () => {
    expect(await (await app('/taken')).text()).toBe('page /taken');
  });

  test('a draft at the old slug does not shadow the redirect for visitors', async () => {
    expect((await app('/draft-owner')).status).toBe(301);
  });

  test('other paths and methods pass through', async () => {
    expect((await app('/moved-here')).status).toBe(200);
    expect((await app('/never-was')).status).toBe(200);
    const post = await app('/moved', { method: 'POST', body: 'x' });
    expect(post.status).toBe(200);
  });
});
