// Claimed purges go as one request (docs/decisions/0045, fourth hostile pass M2): what that
// request names is their keys' union, or `site` when one of them is everything or the union
// does not fit one header.
import { expect, test } from 'bun:test';
import { MAX_KEYS_BYTES } from '../data/cache-keys';
import { unionOfKeys } from './purge';

test('several purges name their keys once each', () => {
  expect(
    unionOfKeys([
      { keys: ['page-a', 'feed', 'sitemap', 'api'] },
      { keys: ['page-b', 'feed', 'sitemap', 'api'] },
      { keys: ['media-0123456789abcdef0123456789abcdef'] },
    ]),
  ).toEqual([
    'page-a',
    'feed',
    'sitemap',
    'api',
    'page-b',
    'media-0123456789abcdef0123456789abcdef',
  ]);
});

test('one purge of everything makes the request everything', () => {
  expect(unionOfKeys([{ keys: ['page-a', 'feed'] }, { keys: ['site'] }])).toEqual(['site']);
});

test('a union past the header bound is everything', () => {
  const many = Array.from({ length: MAX_KEYS_BYTES / 16 }, (_, i) => ({
    keys: [`page-a-long-slug-${i}`],
  }));
  expect(unionOfKeys(many)).toEqual(['site']);
});
