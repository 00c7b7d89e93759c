import { expect, test } from 'bun:test';
import { formatUtc } from './dates';

test('formats a time in UTC as toLocaleString would', () => {
  const iso = '2026-11-22T18:20:39.000Z';
  expect(formatUtc(iso)).toBe(`${new Date(iso).toLocaleString('en', { timeZone: 'UTC' })} UTC`);
  expect(formatUtc(Date.parse(iso))).toBe('11/22/2026, 6:20:39 PM UTC');
  expect(formatUtc(new Date(iso))).toBe('11/22/2026, 6:20:39 PM UTC');
});

test('an unreadable time does not throw', () => {
  expect(formatUtc('not a date')).toBe('an unknown time');
});
