import { describe, expect, test } from 'bun:test';
import { searchTerms, searchText } from './page-list-params';

// What the dashboard's and the media library's search boxes read from `?q=` (hostile pass).
describe('searchText', () => {
  test('drops control characters, keeps 100 characters, never half an emoji', () => {
    expect(searchText('a\u0000b\u0007c\u009fd')).toBe('abcd');
    expect(searchText(null)).toBe('');
    expect(searchText('x'.repeat(500))).toHaveLength(100);
    // 99 letters and an emoji: the emoji is one character, kept whole.
    expect(searchText(`${'x'.repeat(99)}🎉🎉`)).toBe(`${'x'.repeat(99)}🎉`);
    expect(searchText('\ud800lone')).toBe('\ufffdlone');
  });
});

describe('searchTerms', () => {
  test('letters and digits, Latin accents off, other scripts whole, never syntax', () => {
    expect(searchTerms('İstanbul Café')).toEqual(['istanbul', 'cafe']);
    expect(searchTerms('हिन्दी 한국어')).toEqual(['हिन्दी', '한국어']);
    expect(searchTerms('"quay"* ^( a:* &|!')).toEqual(['quay', 'a']);
  });
});
