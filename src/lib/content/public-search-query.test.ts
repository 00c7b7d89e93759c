import { describe, expect, test } from 'bun:test';
import {
  engineQuery,
  PREFIX_MIN,
  parseSearch,
  SEARCH_TEXT_MAX,
  SEARCH_WORDS_MAX,
  segmentsOf,
} from './public-search-query';

// The visitors' search language (issue 27): words, a prefix on the last, "phrases", and
// everything else literal; limits that bound any input.
describe('parseSearch', () => {
  test('words, a phrase, and the last word as a prefix', () => {
    expect(parseSearch('Garden "brown fox" tomat')).toEqual({
      text: 'Garden "brown fox" tomat',
      terms: [
        { words: ['garden'], phrase: false, prefix: false },
        { words: ['brown', 'fox'], phrase: true, prefix: false },
        { words: ['tomat'], phrase: false, prefix: true },
      ],
      cut: null,
    });
  });

  test(`a last word shorter than ${PREFIX_MIN} letters, or quoted, is matched whole`, () => {
    expect(parseSearch('garden to').terms.at(-1)?.prefix).toBe(false);
    expect(parseSearch('"garden"').terms).toEqual([
      { words: ['garden'], phrase: false, prefix: false },
    ]);
  });

  test('an unclosed quote runs to the end; curly quotes count', () => {
    expect(parseSearch('a "b c').terms.at(-1)).toEqual({
      words: ['b', 'c'],
      phrase: true,
      prefix: false,
    });
    expect(parseSearch('\u201cb c\u201d').terms).toEqual([
      { words: ['b', 'c'], phrase: true, prefix: false },
    ]);
  });

  test('operators and punctuation are not words', () => {
    expect(parseSearch('AND OR * ^ : ( ) - + NEAR').terms.map((t) => t.words[0])).toEqual([
      'and',
      'or',
      'near',
    ]);
    expect(parseSearch('*** ::: ---').terms).toEqual([]);
  });

  test('control characters and NUL separate words and never stay in the text', () => {
    const parsed = parseSearch('ab\u0000cd\u0007ef');
    expect(parsed.text).toBe('ab cd ef');
    expect(parsed.terms.map((t) => t.words[0])).toEqual(['ab', 'cd', 'ef']);
  });

  test('accents are taken off Latin letters, other scripts keep their marks', () => {
    expect(parseSearch('İstanbul Café').terms.map((t) => t.words[0])).toEqual(['istanbul', 'cafe']);
    expect(parseSearch('हिन्दी').terms[0]?.words[0]).toBe('हिन्दी');
  });

  test(`at most ${SEARCH_WORDS_MAX} words, and the visitor is told`, () => {
    const parsed = parseSearch(Array.from({ length: 500 }, (_, i) => `w${i}`).join(' '));
    expect(parsed.terms).toHaveLength(SEARCH_WORDS_MAX);
    expect(parsed.cut).toBe('words');
  });

  test(`at most ${SEARCH_TEXT_MAX} characters read, whatever the length`, () => {
    const started = performance.now();
    const parsed = parseSearch('x'.repeat(10_000_000));
    expect(performance.now() - started).toBeLessThan(200);
    expect(Array.from(parsed.text)).toHaveLength(SEARCH_TEXT_MAX);
    expect(parsed.cut).toBe('length');
    expect(parsed.terms[0]?.words[0]?.length).toBeLessThanOrEqual(60);
  });

  test('a word or phrase asked for twice is one term', () => {
    expect(parseSearch('page page "a b" page "a b"').terms).toEqual([
      { words: ['page'], phrase: false, prefix: false },
      { words: ['a', 'b'], phrase: true, prefix: false },
    ]);
    expect(parseSearch('page '.repeat(30)).cut).toBeNull();
  });

  test('half an emoji and lone surrogates do not survive', () => {
    expect(parseSearch('\ud83d').text).toBe('\ufffd');
    expect(parseSearch('\ud83d').terms).toEqual([]);
  });
});

describe('engineQuery', () => {
  const terms = parseSearch('café "brown fox" tomat').terms;
  test('SQLite FTS5: every word quoted, the prefix starred', () => {
    expect(engineQuery('sqlite', terms)).toBe('"cafe" "brown fox" "tomat"*');
  });
  test('PostgreSQL to_tsquery: every word quoted, phrases by <->', () => {
    expect(engineQuery('postgres', terms)).toBe("'cafe' & ('brown' <-> 'fox') & 'tomat':*");
  });
  test('no quote, backslash or operator of a visitor reaches either syntax', () => {
    const hostile = parseSearch(`a"b'c\\d*e:f(g)h&i|j!k<l>m NEAR(n) o^p`).terms;
    for (const engine of ['sqlite', 'postgres'] as const) {
      const query = engineQuery(engine, hostile);
      const words = query.replace(/["'*:&<>()-]|\s/g, '');
      expect(words).toMatch(/^[a-z]+$/);
      expect(query).not.toContain('\\');
    }
  });
});

describe('segmentsOf', () => {
  test('the markers split text into marked and plain segments and are never shown', () => {
    expect(segmentsOf('a \u0002b\u0003 c')).toEqual([
      { text: 'a ', mark: false },
      { text: 'b', mark: true },
      { text: ' c', mark: false },
    ]);
    expect(segmentsOf('<script>')).toEqual([{ text: '<script>', mark: false }]);
  });
});
