import { describe, expect, test } from 'bun:test';
import { cleanLine, cleanMultiline, cleanSummary } from './clean-text';
import { pageFieldsSchema } from './page-fields';
import { siteSettingsSchema } from './settings';

describe('one-line text (titles, slugs, the site title, tagline and footer)', () => {
  test('drops NUL and other controls, bidi overrides and isolates, zero-width characters', () => {
    expect(cleanLine('a\u0000b\u0007c\u007fd\u0085e')).toBe('abcde');
    expect(cleanLine('gpj.\u202aexe\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069')).toBe(
      'gpj.exe',
    );
    expect(cleanLine('zero\u200bwidth\u200c\u200d\u2060\ufeff')).toBe('zerowidth');
  });

  test('a line break or tab pasted into it is one space', () => {
    expect(cleanLine('two\r\nlines\tand more')).toBe('two lines and more');
    // U+2028 is text (files.ts escapes it in exports): kept.
    expect(cleanLine('a\u2028b')).toBe('a\u2028b');
  });

  test('keeps a joiner inside an emoji, and every other character', () => {
    for (const emoji of ['👩‍💻', '👩🏽‍💻', '👨‍👩‍👧', '🏳️‍🌈'])
      expect(cleanLine(`A ${emoji} team`)).toBe(`A ${emoji} team`);
    expect(cleanLine('Café — שלום, مرحبا, 日本')).toBe('Café — שלום, مرحبا, 日本');
  });
});

describe('multi-line text (a body, a summary)', () => {
  test('drops controls but tab and line feed; CRLF and CR are LF', () => {
    expect(cleanMultiline('a\u0000b\r\nc\rd\te\u001bf')).toBe('ab\nc\nd\tef');
  });

  test('keeps bidi and zero-width characters: they are the prose of right-to-left scripts', () => {
    const prose = 'می\u200cخواهم \u2067עברית\u2069 👩‍💻';
    expect(cleanMultiline(prose)).toBe(prose);
  });
});

test('page fields and site settings both use it (one rule for every typed field)', () => {
  expect(
    pageFieldsSchema.parse({
      title: ' \u202eTitle\u200b\u0000 ',
      summary: 'S\u0000',
      body: 'B\u0000',
    }),
  ).toEqual({ title: 'Title', summary: 'S', body: 'B' });
  expect(
    siteSettingsSchema.parse({
      title: 'Site\u0000\u202e',
      tagline: '\u200bTag',
      footer: 'Foot\u0000',
      navigation: null,
    }),
  ).toEqual({ title: 'Site', tagline: 'Tag', footer: 'Foot', navigation: null });
  // A title of nothing but invisibles is empty, and refused as empty.
  expect(pageFieldsSchema.safeParse({ title: '\u200b\u202e', summary: '', body: '' }).success).toBe(
    false,
  );
});

describe('what the hostile pass saved that shows nothing', () => {
  test('a title of only fillers is empty; soft hyphens and invisible operators go', () => {
    for (const blank of [
      '\u3164',
      '\u115f\u1160',
      '\uffa0',
      '\u200b\u3164',
      '\u00ad',
      '\u2061\u034f',
    ])
      expect(cleanLine(blank).trim(), JSON.stringify(blank)).toBe('');
    expect(cleanLine('Caf\u00ade \u180eNotes')).toBe('Cafe Notes');
  });
  test('a summary keeps its prose but loses bidi overrides; direction marks stay everywhere', () => {
    expect(cleanSummary('Read \u202emy notes\u202c here')).toBe('Read my notes here');
    expect(cleanSummary('line one\r\nline two')).toBe('line one\nline two');
    expect(cleanLine('\u05e9\u05dc\u05d5\u05dd\u200f 2026')).toBe(
      '\u05e9\u05dc\u05d5\u05dd\u200f 2026',
    );
  });
});
