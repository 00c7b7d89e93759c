import { describe, expect, test } from 'bun:test';
import {
  pageDataQueryOf,
  pageNumberProblem,
  publicQueryOf,
  publicQueryOfPageData,
} from './public-params';

describe('a public page keeps only the parameters it takes', () => {
  test('junk and tracking parameters are dropped', () => {
    expect(publicQueryOf('/about', 'utm_source=x&fbclid=1')).toEqual({
      ok: true,
      params: { q: null, page: 1 },
      canonical: '',
    });
  });

  test('a search is kept on the home page only, as typed, blank included', () => {
    expect(publicQueryOf('/', 'q=caf%C3%A9+au+lait&utm=1')).toEqual({
      ok: true,
      params: { q: 'café au lait', page: 1 },
      canonical: 'q=caf%C3%A9+au+lait',
    });
    expect(publicQueryOf('/', 'q=')).toMatchObject({ ok: true, params: { q: '' } });
    expect(publicQueryOf('/about', 'q=words')).toMatchObject({
      canonical: '',
      params: { q: null },
    });
  });

  test('a page number has one spelling; page 1 is the address without it', () => {
    expect(publicQueryOf('/topic', 'page=2')).toMatchObject({ canonical: 'page=2' });
    expect(publicQueryOf('/topic', 'page=1')).toMatchObject({ canonical: '', params: { page: 1 } });
    expect(publicQueryOf('/', 'page=3&q=x')).toMatchObject({ canonical: 'q=x&page=3' });
    expect(publicQueryOf('/topic', 'page=99999')).toMatchObject({ ok: true });
    for (const bad of ['0', '02', '-1', 'abc', '1.5', '', ' 2', '100000', '9'.repeat(400)])
      expect(publicQueryOf('/topic', `page=${encodeURIComponent(bad)}`)).toEqual({
        ok: false,
        asked: bad,
      });
  });

  test("page data carries the page's query encoded once more", () => {
    const query = pageDataQueryOf('q=x&page=2');
    expect(query).toBe('query=q%3Dx%26page%3D2');
    expect(publicQueryOfPageData('/RSC/R/_root.txt', query)).toMatchObject({
      params: { q: 'x', page: 2 },
      canonical: 'q=x&page=2',
    });
    expect(publicQueryOfPageData('/RSC/R/about.txt', 'query=page%3Dabc')).toEqual({
      ok: false,
      asked: 'abc',
    });
    expect(publicQueryOfPageData('/about', '')).toBeNull();
    expect(pageDataQueryOf('')).toBe('');
  });

  test('a page number that names no page is said in words that fit it (hostile pass 27, 12)', () => {
    expect(pageNumberProblem('0')).toContain('there is no page 0');
    expect(pageNumberProblem('000')).toContain('there is no page 0');
    expect(pageNumberProblem('02')).toContain('?page=2');
    expect(pageNumberProblem('99999999')).toContain('that many pages');
    expect(pageNumberProblem('100000')).toContain('99,999');
    expect(pageNumberProblem('-1')).toContain('sign or a fraction');
    expect(pageNumberProblem('1.5')).toContain('sign or a fraction');
    for (const notANumber of ['abc', '', ' 2', '1e3'])
      expect(pageNumberProblem(notANumber)).toContain('not a number');
    for (const numeric of ['0', '02', '99999999', '-1'])
      expect(pageNumberProblem(numeric)).not.toContain('not a number');
  });
});
