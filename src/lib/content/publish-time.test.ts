import { describe, expect, test } from 'bun:test';
import { parsePublishTime, publishTimeProblem } from './publish-time';

describe('parsePublishTime', () => {
  test('reads ISO 8601 with Z, an offset, or no zone (UTC)', () => {
    expect(parsePublishTime('2026-12-01T09:00Z')?.toISOString()).toBe('2026-12-01T09:00:00.000Z');
    expect(parsePublishTime('2026-12-01T09:00')?.toISOString()).toBe('2026-12-01T09:00:00.000Z');
    expect(parsePublishTime('2026-12-01T09:00:30+01:00')?.toISOString()).toBe(
      '2026-12-01T08:00:30.000Z',
    );
    expect(parsePublishTime(' 2026-12-01 09:00-0530 ')?.toISOString()).toBe(
      '2026-12-01T14:30:00.000Z',
    );
    expect(parsePublishTime('2026-12-01T09:00:00.123456Z')?.toISOString()).toBe(
      '2026-12-01T09:00:00.000Z',
    );
  });

  test('refuses what names no instant', () => {
    for (const text of [
      '',
      'tomorrow',
      '2026-02-30T10:00Z',
      '2026-13-01T10:00Z',
      '2026-12-01T24:00Z',
      '2026-12-01T10:60Z',
      '2026-12-01T10:00:61Z',
      '2026-12-01T10:00+25:00',
      '2026-12-01',
      '12/01/2026 10:00',
      '2026-12-01T10:00Z; DROP TABLE pages',
      '9'.repeat(10_000),
    ])
      expect(parsePublishTime(text), text).toBeNull();
  });
});

describe('publishTimeProblem', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  test('the past and the present are refused, as is more than five years ahead', () => {
    expect(publishTimeProblem(new Date('2026-11-23T11:59:59Z'), now)).toContain('has passed');
    expect(publishTimeProblem(now, now)).toContain('has passed');
    expect(publishTimeProblem(new Date('2026-11-23T12:00:01Z'), now)).toBeNull();
    expect(publishTimeProblem(new Date('2031-12-01T00:00:00Z'), now)).toContain('five years');
  });
});
