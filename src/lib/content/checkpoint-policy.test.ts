import { describe, expect, test } from 'bun:test';
import {
  CHECKPOINTS_MAX,
  type CheckpointStub,
  COALESCE_MINUTES,
  checkpointsToPrune,
  coalesces,
  HIDDEN_MAX,
} from './checkpoint-policy';

const NOW = new Date('2026-11-26T12:00:00Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('coalesces', () => {
  const last = { kind: 'autosave', savedBy: 'a@example.com', firstSavedAt: ago(2 * MINUTE) };
  test('the same editor within the window replaces the checkpoint', () => {
    expect(coalesces(last, 'a@example.com', 'autosave', NOW)).toBe(true);
    expect(coalesces(last, 'a@example.com', 'save', NOW)).toBe(true);
  });
  test('another editor, the window past, a restore or merge before: a checkpoint of its own', () => {
    expect(coalesces(last, 'b@example.com', 'autosave', NOW)).toBe(false);
    expect(coalesces(last, null, 'autosave', NOW)).toBe(false);
    expect(coalesces(undefined, 'a@example.com', 'autosave', NOW)).toBe(false);
    expect(
      coalesces(
        { ...last, firstSavedAt: ago(COALESCE_MINUTES * MINUTE) },
        'a@example.com',
        'autosave',
        NOW,
      ),
    ).toBe(false);
    expect(coalesces({ ...last, kind: 'restore' }, 'a@example.com', 'autosave', NOW)).toBe(false);
    expect(coalesces(last, 'a@example.com', 'merge', NOW)).toBe(false);
  });
});

describe('checkpointsToPrune', () => {
  let id = 0;
  const row = (age: number, hidden = false, version = 1): CheckpointStub => ({
    id: ++id,
    savedAt: ago(age),
    hidden,
    version,
  });

  test('keeps every checkpoint of the last day', () => {
    const rows = Array.from({ length: 50 }, (_, i) => row(i * 20 * MINUTE, false, i + 2));
    expect(checkpointsToPrune(rows, NOW, 999)).toEqual([]);
  });

  test('between a day and a week: the newest of each hour; older: the newest of each day', () => {
    const hourA = [row(DAY + 10 * MINUTE, false, 2), row(DAY + 20 * MINUTE, false, 3)];
    const dayA = [row(9 * DAY + HOUR, false, 4), row(9 * DAY + 2 * HOUR, false, 5)];
    const dropped = checkpointsToPrune([...hourA, ...dayA], NOW, 999);
    // Within one hour (and one day), the newer (younger) stays.
    const sameHour =
      Math.floor(Date.parse(hourA[0]?.savedAt ?? '') / HOUR) ===
      Math.floor(Date.parse(hourA[1]?.savedAt ?? '') / HOUR);
    expect(dropped).toContain(sameHour ? (hourA[1]?.id ?? 0) : -1);
    expect(dropped).not.toContain(hourA[0]?.id);
    expect(dropped).toEqual(expect.arrayContaining([dayA[1]?.id]));
    expect(dropped).not.toContain(dayA[0]?.id);
  });

  test('at most CHECKPOINTS_MAX listed; the oldest go', () => {
    const rows = Array.from({ length: CHECKPOINTS_MAX + 5 }, (_, i) =>
      row(i * MINUTE, false, 1000 - i),
    );
    const dropped = checkpointsToPrune(rows, NOW, 1000);
    expect(dropped).toHaveLength(5);
    expect(dropped).toEqual(rows.slice(-5).map((r) => r.id));
  });

  test('hidden merge bases: a day, at most HIDDEN_MAX; the current version never goes', () => {
    const old = row(DAY + MINUTE, true, 3);
    const current = row(3 * DAY, true, 7);
    const many = Array.from({ length: HIDDEN_MAX + 2 }, (_, i) => row(i * MINUTE, true, 10 + i));
    const dropped = checkpointsToPrune([old, current, ...many], NOW, 7);
    expect(dropped).toContain(old.id);
    expect(dropped).not.toContain(current.id);
    expect(dropped).toEqual(expect.arrayContaining(many.slice(HIDDEN_MAX).map((r) => r.id)));
    expect(dropped).not.toContain(many[0]?.id);
  });
});
