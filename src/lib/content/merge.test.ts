import { describe, expect, test } from 'bun:test';
import { conflictsKey, mergeBodiesKeepingBoth, mergeTexts } from './merge';

const text = (body: string, title = 'Title', summary = '') => ({ title, summary, body });

describe('mergeTexts', () => {
  const base = text('Intro.\n\nFerry times.\n\nContact us.');

  test('changes to different paragraphs are both kept, with no question', () => {
    const mine = text('Intro.\n\nFerry times, summer.\n\nContact us.');
    const theirs = text('Intro.\n\nFerry times.\n\nContact us: the office phone.');
    const merged = mergeTexts(mine, base, theirs);
    expect(merged.conflicts).toEqual([]);
    expect(merged.text.body).toBe(
      'Intro.\n\nFerry times, summer.\n\nContact us: the office phone.',
    );
  });

  test('a paragraph added by each at the same place asks; "both" keeps both, mine first', () => {
    const mine = text('Intro.\n\nFerry times.\n\nContact us.\n\nTab A adds the opening hours.');
    const theirs = text('Intro.\n\nFerry times.\n\nContact us.\n\nTab B adds the phone numbers.');
    const asked = mergeTexts(mine, base, theirs);
    expect(asked.conflicts).toHaveLength(1);
    expect(asked.conflicts[0]?.field).toBe('body');
    // Unanswered, the form's own text stays: mine.
    expect(asked.text.body).toBe(mine.body);
    const both = mergeTexts(mine, base, theirs, ['both']).text.body;
    expect(both).toContain('Tab A adds the opening hours.');
    expect(both).toContain('Tab B adds the phone numbers.');
    expect(both.indexOf('Tab A')).toBeLessThan(both.indexOf('Tab B'));
    // The two sentences stay two paragraphs, never interleaved.
    expect(both).toMatch(/opening hours\.\n+\n.*Tab B/s);
    expect(mergeTexts(mine, base, theirs, ['theirs']).text.body).toBe(theirs.body);
  });

  test('only the overlapping paragraph asks; the others merge around it', () => {
    const mine = text('Intro, mine.\n\nFerry times A.\n\nContact us.');
    const theirs = text('Intro.\n\nFerry times B.\n\nContact us, theirs.');
    const merged = mergeTexts(mine, base, theirs, ['theirs']);
    expect(merged.conflicts.map((c) => [c.mine, c.theirs])).toEqual([
      ['Ferry times A.', 'Ferry times B.'],
    ]);
    expect(merged.text.body).toBe('Intro, mine.\n\nFerry times B.\n\nContact us, theirs.');
  });

  test('title and summary: the side that changed wins; both changing asks', () => {
    const merged = mergeTexts(
      text('x', 'Mine', 'S'),
      text('x', 'Old', 'S'),
      text('x', 'Old', 'S2'),
    );
    expect(merged.text).toEqual({ title: 'Mine', summary: 'S2', body: 'x' });
    const asked = mergeTexts(text('x', 'Mine'), text('x', 'Old'), text('x', 'Theirs'));
    expect(asked.conflicts.map((c) => c.field)).toEqual(['title']);
    expect(
      mergeTexts(text('x', 'Mine'), text('x', 'Old'), text('x', 'Theirs'), ['theirs']).text.title,
    ).toBe('Theirs');
  });

  test('the same change on both sides is no conflict', () => {
    const same = text('Intro.\n\nFerry times, new.\n\nContact us.');
    expect(mergeTexts(same, base, { ...same }).conflicts).toEqual([]);
  });

  test('without a base every difference asks: nothing is merged unseen', () => {
    const mine = text('Intro.\n\nMine.');
    const theirs = text('Intro.\n\nTheirs.');
    const merged = mergeTexts(mine, null, theirs);
    expect(merged.conflicts).toHaveLength(1);
    expect(merged.text.body).toBe(mine.body);
  });

  test('the key names the conflicts: other conflicts, another key', () => {
    const a = mergeTexts(text('A1'), text('A'), text('A2')).conflicts;
    const b = mergeTexts(text('A3'), text('A'), text('A2')).conflicts;
    expect(conflictsKey(a)).toBe(conflictsKey([...a]));
    expect(conflictsKey(a)).not.toBe(conflictsKey(b));
  });

  test('a 5 000-line page merges quickly', () => {
    const lines = Array.from({ length: 5_000 }, (_, i) => `Paragraph ${i} of the long page.`);
    const big = lines.join('\n\n');
    const mine = lines.map((l, i) => (i === 10 ? `${l} Mine.` : l)).join('\n\n');
    const theirs = lines.map((l, i) => (i === 4_000 ? `${l} Theirs.` : l)).join('\n\n');
    const started = performance.now();
    const merged = mergeTexts(text(mine), text(big), text(theirs));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(merged.conflicts).toEqual([]);
    expect(merged.text.body).toContain('Paragraph 10 of the long page. Mine.');
    expect(merged.text.body).toContain('Paragraph 4000 of the long page. Theirs.');
  });
});

test('mergeBodiesKeepingBoth: separate changes both taken; the same lines changed keep both, mine first', () => {
  expect(
    mergeBodiesKeepingBoth('One, mine.\n\nTwo.\n', 'One.\n\nTwo.\n', 'One.\n\nTwo, theirs.\n'),
  ).toBe('One, mine.\n\nTwo, theirs.\n');
  expect(mergeBodiesKeepingBoth('One, mine.\n', 'One.\n', 'One, theirs.\n')).toBe(
    'One, mine.\n\nOne, theirs.\n',
  );
  // No base kept: every difference is such a place, and nothing of either is dropped.
  expect(mergeBodiesKeepingBoth('Mine.', null, 'Theirs.')).toBe('Mine.\n\nTheirs.');
});
