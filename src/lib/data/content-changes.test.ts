import { describe, expect, test } from 'bun:test';
import {
  createChangeLog,
  decodeChange,
  EVERYTHING,
  encodeChange,
  MAX_PAGES_PER_CHANGE,
  mergeChanges,
  pagesChanged,
} from './content-changes';

describe('a change', () => {
  test('travels as `<version>:<slugs>` or `<version>:*`, and a bare version is everything', () => {
    expect(encodeChange(7, pagesChanged('a', 'b', 'a'))).toBe('7:a,b');
    expect(encodeChange(8, EVERYTHING)).toBe('8:*');
    expect(decodeChange('7:a,b')).toEqual({ version: 7, change: { pages: ['a', 'b'] } });
    expect(decodeChange('8:*')).toEqual({ version: 8, change: EVERYTHING });
    // A probe (or a writer from before 0028) says nothing of what changed.
    expect(decodeChange('9')).toEqual({ version: 9, change: EVERYTHING });
  });

  test('merges pages, and too many for one notification are everything', () => {
    expect(mergeChanges(pagesChanged('a'), pagesChanged('b', 'a'))).toEqual({ pages: ['a', 'b'] });
    expect(mergeChanges(pagesChanged('a'), EVERYTHING)).toBe(EVERYTHING);
    const many = Array.from({ length: MAX_PAGES_PER_CHANGE + 1 }, (_, i) => `p${i}`);
    expect(mergeChanges(pagesChanged(...many.slice(1)), pagesChanged(many[0] ?? ''))).toBe(
      EVERYTHING,
    );
  });
});

describe('the change log', () => {
  const started = (at = 10) => {
    const log = createChangeLog();
    log.resync(at);
    return log;
  };

  test('a page change leaves every other page current, and its own not', () => {
    const log = started();
    log.heard(11, pagesChanged('a'));
    expect(log.latest).toBe(11);
    expect(log.stillCurrent(10, 'b')).toBe(true);
    expect(log.stillCurrent(10, 'a')).toBe(false);
    // Made after the change, it is current again.
    expect(log.stillCurrent(11, 'a')).toBe(true);
    expect(log.listingsVersion).toBe(11);
  });

  test('everything leaves nothing made before it current', () => {
    const log = started();
    log.heard(11, pagesChanged('a'));
    log.heard(12, EVERYTHING);
    expect(log.stillCurrent(11, 'b')).toBe(false);
    expect(log.stillCurrent(12, 'a')).toBe(true);
  });

  test('a skipped version (a missed notification) is everything', () => {
    const log = started();
    log.heard(13, pagesChanged('a'));
    expect(log.stillCurrent(12, 'b')).toBe(false);
    expect(log.stillCurrent(13, 'b')).toBe(true);
  });

  test('after a reconnect, a stored version beyond what was heard is everything; the same is nothing', () => {
    const log = started();
    log.heard(11, pagesChanged('a'));
    log.resync(11);
    expect(log.stillCurrent(10, 'b')).toBe(true);
    log.resync(12);
    expect(log.stillCurrent(11, 'b')).toBe(false);
    expect(log.latest).toBe(12);
  });

  test("a writer's own commit ahead of what it heard: the versions between count as everything until heard", () => {
    const log = started();
    log.committed(12, pagesChanged('mine'));
    expect(log.latest).toBe(12);
    // Version 11 (another writer's) is not heard yet: anything made before it may be stale.
    expect(log.stillCurrent(10, 'b')).toBe(false);
    log.heard(11, pagesChanged('theirs'));
    expect(log.contiguous).toBe(12);
    expect(log.stillCurrent(10, 'b')).toBe(true);
    expect(log.stillCurrent(10, 'mine')).toBe(false);
    expect(log.stillCurrent(10, 'theirs')).toBe(false);
    // Its own notification, heard later, changes nothing.
    log.heard(12, pagesChanged('mine'));
    expect(log.stillCurrent(12, 'mine')).toBe(true);
  });

  test('an old version heard again, or out of order, never moves it back', () => {
    const log = started();
    log.heard(11, pagesChanged('a'));
    log.heard(9, EVERYTHING);
    log.committed(11, EVERYTHING);
    expect(log.latest).toBe(11);
    expect(log.stillCurrent(10, 'b')).toBe(true);
  });
});
