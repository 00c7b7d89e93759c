import { describe, expect, test } from 'bun:test';
import {
  canonicalProblem,
  EMPTY_SEO,
  formatSeo,
  META_DESCRIPTION_MAX,
  META_TITLE_MAX,
  parseSeo,
  seoFieldsSchema,
  snippet,
  socialImageAdvice,
  socialImageProblem,
  usableForCard,
} from './seo-fields';

const HASH = 'a'.repeat(32);
const fields = (over: Partial<Record<string, unknown>> = {}) => ({
  title: '',
  description: '',
  image: '',
  canonical: '',
  noindex: false,
  ...over,
});

describe('canonical address', () => {
  test('empty, an https or http URL, or a path of this site', () => {
    for (const ok of ['', 'https://example.com/a', 'http://example.com', '/other-page', '/a?b=c'])
      expect(canonicalProblem(ok)).toBeNull();
  });
  test('javascript:, data:, protocol-relative and garbage are refused in words', () => {
    expect(canonicalProblem('javascript:alert(1)')).toContain('“javascript:”');
    expect(canonicalProblem('data:text/html,<b>')).not.toBeNull();
    expect(canonicalProblem('data:text/html,x')).toContain('“data:”');
    expect(canonicalProblem('//evil.example/x')).toContain('single /');
    expect(canonicalProblem('example.com/page')).toContain('https://');
    expect(canonicalProblem('https://a b.com/')).toContain('no spaces');
    expect(canonicalProblem('https://user:pw@example.com/')).toContain('password');
    expect(canonicalProblem('ftp://example.com/')).toContain('“ftp:”');
    expect(canonicalProblem(`https://example.com/${'a'.repeat(2_000)}`)).toContain('at most');
  });
});

describe('field limits', () => {
  test('a title and a description past their hard limits are refused, trimmed and cleaned', () => {
    expect(seoFieldsSchema.safeParse(fields({ title: 'x'.repeat(META_TITLE_MAX) })).success).toBe(
      true,
    );
    const long = seoFieldsSchema.safeParse(fields({ title: 'x'.repeat(META_TITLE_MAX + 1) }));
    expect(long.success).toBe(false);
    expect(long.error?.issues[0]?.message).toBe(`Use at most ${META_TITLE_MAX} characters.`);
    expect(
      seoFieldsSchema.safeParse(fields({ description: 'y'.repeat(META_DESCRIPTION_MAX + 1) }))
        .success,
    ).toBe(false);
    const cleaned = seoFieldsSchema.parse(fields({ title: '  A\u200Btitle ', image: HASH }));
    expect(cleaned.title).toBe('Atitle');
    expect(cleaned.image).toBe(HASH);
  });
  test('an image that is not a library hash, and a bad canonical, are field errors', () => {
    const image = seoFieldsSchema.safeParse(fields({ image: '../../etc/passwd' }));
    expect(image.error?.issues[0]?.path).toEqual(['image']);
    const canonical = seoFieldsSchema.safeParse(fields({ canonical: 'javascript:alert(1)' }));
    expect(canonical.error?.issues[0]?.path).toEqual(['canonical']);
  });
});

describe('social image size', () => {
  test('below 200 × 200 is refused, below 1200 × 630 is advice', () => {
    expect(socialImageProblem(199, 800)).toContain('at least 200 × 200');
    expect(socialImageProblem(800, 150)).toContain('800 × 150');
    expect(socialImageProblem(200, 200)).toBeNull();
    expect(usableForCard(200, 200)).toBe(true);
    expect(usableForCard(120, 120)).toBe(false);
    expect(socialImageAdvice(600, 400)).toContain('1200 × 630');
    expect(socialImageAdvice(1200, 630)).toBeNull();
    // A refused size is not also "advised".
    expect(socialImageAdvice(100, 100)).toBeNull();
  });
});

describe('stored form', () => {
  test('no choices are stored as {} and read back as none', () => {
    expect(formatSeo(EMPTY_SEO)).toBe('{}');
    expect(parseSeo('{}')).toEqual(EMPTY_SEO);
  });
  test('the same fields are the same text, and read back as they were', () => {
    const value = {
      title: 'T',
      description: 'D',
      image: HASH,
      canonical: '/x',
      noindex: true,
    };
    expect(formatSeo(value)).toBe(formatSeo({ ...value }));
    expect(parseSeo(formatSeo(value))).toEqual(value);
  });
  test('an unreadable or hand-edited row reads as no choices, never an error', () => {
    expect(parseSeo('not json')).toEqual(EMPTY_SEO);
    expect(parseSeo('[1]').noindex).toBe(false);
    const forged = parseSeo(
      JSON.stringify({ canonical: 'javascript:alert(1)', image: 'x', noindex: 'yes' }),
    );
    expect(forged).toEqual(EMPTY_SEO);
  });
});

describe('snippet', () => {
  test('cuts at a word and ends with …, as search results do', () => {
    expect(snippet('short', 70)).toBe('short');
    const cut = snippet('word '.repeat(40), 70);
    expect(cut.endsWith('…')).toBe(true);
    expect([...cut].length).toBeLessThanOrEqual(70);
    expect(cut).not.toContain(' …');
  });
});
