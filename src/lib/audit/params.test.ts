// The audit trail's `since` filter (screen and CLI share sinceOf): a day that is not on the
// calendar is refused in words, never rolled over into the next month (hostile pass, issue 28).
import { describe, expect, test } from 'bun:test';
import { auditQueryOf, SINCE_PROBLEM, sinceOf } from './params';

describe('since', () => {
  const now = new Date('2026-11-26T12:00:00Z');

  test('a real date, a time, a number of days', () => {
    expect(sinceOf('2026-11-30', now)).toBe('2026-11-30T00:00:00.000Z');
    expect(sinceOf('2028-02-29', now)).toBe('2028-02-29T00:00:00.000Z');
    expect(sinceOf('2026-11-30T10:00:00Z', now)).toBe('2026-11-30T10:00:00.000Z');
    expect(sinceOf('2d', now)).toBe('2026-11-24T12:00:00.000Z');
  });

  test('a day the month does not have is no date (the screen says so as its problem)', () => {
    for (const text of ['2026-11-31', '2026-02-30', '2026-02-29', '2026-13-01', '2026-00-10'])
      expect(sinceOf(text, now)).toBeNull();
    expect(sinceOf('2026-11-31T10:00:00Z', now)).toBeNull();
    expect(auditQueryOf(new URLSearchParams('audit&since=2026-11-31'), now).problem).toBe(
      SINCE_PROBLEM,
    );
  });
});
