import { describe, expect, test } from 'bun:test';
import { keptBothText, reopenedText, smallestEdit, textEdits } from './text-edits';

describe('the edits between two texts', () => {
  test('the smallest edit keeps the common ends and never splits a surrogate pair', () => {
    expect(smallestEdit('abcdef', 'abXYef')).toEqual({ at: 2, remove: 2, insert: 'XY' });
    const edit = smallestEdit('a😀b', 'a😃b');
    const result = `a😀b`.slice(0, edit.at) + edit.insert + 'a😀b'.slice(edit.at + edit.remove);
    expect(result).toBe('a😃b');
    expect(edit.insert).toBe('😃');
  });

  /** `edits` applied to `from` from the last to the first, as live-document's text takes them. */
  const apply = (from: string, edits: ReturnType<typeof textEdits>) =>
    edits.reduceRight(
      (text, edit) => text.slice(0, edit.at) + edit.insert + text.slice(edit.at + edit.remove),
      from,
    );

  test('each change at its place, the text between kept', () => {
    const from = 'One, mine being typed.\n\nTwo.\n\nThree.';
    const to = 'Zero.\n\nOne, mine being typed.\n\nTwo, theirs.\n\nThree.';
    const edits = textEdits(from, to);
    expect(apply(from, edits)).toBe(to);
    // Nothing touches the typist's paragraph: a caret in it stays where it is.
    const caret = from.indexOf('being');
    expect(edits.every((edit) => edit.at + edit.remove <= caret || edit.at > caret + 5)).toBe(true);
    expect(edits.length).toBe(2);
  });

  test('every kind of change, and text in other scripts, comes out right', () => {
    const cases: [string, string][] = [
      ['', ''],
      ['same', 'same'],
      ['', 'all new'],
      ['all gone', ''],
      ['a😀b', 'a😃b'],
      ['Ünïcödé 中文 text', 'Ünïcode 中文字 texts'],
      ['one two three four', 'zero one three four five'],
    ];
    for (const [from, to] of cases) expect(apply(from, textEdits(from, to))).toBe(to);
  });

  test('a page of thousands of lines, two changes far apart: two edits', () => {
    const paragraphs = Array.from({ length: 5_000 }, (_, i) => `Paragraph ${i}.\n`);
    const from = paragraphs.join('');
    const to = [
      ...paragraphs.slice(0, 10),
      'New.\n',
      ...paragraphs.slice(10, 4_990),
      'End.\n',
    ].join('');
    const edits = textEdits(from, to);
    expect(apply(from, edits)).toBe(to);
    expect(edits.length).toBe(2);
  });
});

describe('a document made again', () => {
  const stored = 'One.\n\nTwo.\n';
  test('nothing typed beyond what it stored: the new document’s text, whatever it holds', () => {
    expect(reopenedText(stored, stored, 'One.\n\nTwo.\n\nThree, by another.\n')).toBe(
      'One.\n\nTwo.\n\nThree, by another.\n',
    );
    // Even a text without this tab's stored lines: the tab does not put back what it stored.
    expect(reopenedText(stored, stored, 'One.\n')).toBe('One.\n');
  });

  test('typed beyond it: that typing once, and where another typed at the same place, both', () => {
    const typed = 'One.\n\nTwo.\n\nMine, unsent.\n';
    expect(reopenedText(typed, stored, stored)).toBe(typed);
    expect(reopenedText(typed, stored, typed)).toBe(typed);
    // Another person's paragraph at the same place: neither thrown away (firstSyncText kept
    // only the typing, and a paragraph typed through the remake was lost: the e2e test).
    const merged = reopenedText(typed, stored, 'One.\n\nTwo.\n\nTheirs, typed meanwhile.\n');
    expect(merged).toContain('Mine, unsent.');
    expect(merged).toContain('Theirs, typed meanwhile.');
    expect(merged.split('Two.').length).toBe(2);
  });

  test('two people typing at the end of one paragraph: both, once each, the other’s first', () => {
    // The hostile pass: lines kept twice doubled the whole paragraph.
    const base = 'Start.\n\nShared ka0 kb0\n\nEnd.\n';
    const typed = 'Start.\n\nShared ka0 kb0 ka1 ka2\n\nEnd.\n';
    const remote = 'Start.\n\nShared ka0 kb0 kb1\n\nEnd.\n';
    expect(reopenedText(typed, base, remote)).toBe(
      'Start.\n\nShared ka0 kb0 kb1 ka1 ka2\n\nEnd.\n',
    );
  });

  test('a deletion on one side and typing on the other: the deletion made, the typing kept', () => {
    const base = 'One two three four.\n';
    expect(reopenedText('One two three and more four.\n', base, 'One four.\n')).toBe(
      'One and more four.\n',
    );
    // Changes far apart: each at its place.
    expect(reopenedText('Zero.\nOne two three four.\n', base, 'One two three four.\nFive.\n')).toBe(
      'Zero.\nOne two three four.\nFive.\n',
    );
  });
});

describe('two copies of one document written over each other', () => {
  test('a character one copy had not heard of is kept (the second re-check: "ka002q")', () => {
    const heard = 'Start.\n\nShared ka002q kb1\n\nEnd.\n';
    const missed = 'Start.\n\nShared ka00q kb1\n\nEnd.\n';
    expect(keptBothText(missed, heard)).toBe(heard);
    expect(keptBothText(heard, missed)).toBe(heard);
  });

  test('each copy’s own last typing kept, in either order, nothing doubled', () => {
    const a = 'One, a1.\n\nTwo.\n\nThree.\n';
    const b = 'One.\n\nTwo.\n\nThree, b1.\n';
    const both = 'One, a1.\n\nTwo.\n\nThree, b1.\n';
    expect(keptBothText(a, b)).toBe(both);
    expect(keptBothText(b, a)).toBe(both);
    expect(keptBothText(both, both)).toBe(both);
  });

  test('nothing is taken out: a deletion one copy had not heard of stays undone', () => {
    expect(keptBothText('One two three.\n', 'One three.\n')).toBe('One two three.\n');
    expect(keptBothText('', 'All of it.')).toBe('All of it.');
    expect(keptBothText('All of it.', '')).toBe('All of it.');
    expect(keptBothText('a😀b', 'a😀😃b')).toBe('a😀😃b');
  });
});

describe('two copies kept both, as the hostile pass on three tabs wrote them', () => {
  test('what both hold is there once, whatever each missed', () => {
    // The first rescue, and the second instance's memory: the merge doubled every token both
    // had ("kb001 … ka004" twice) when it took the whole run between the first and the last
    // difference as changed.
    const first = 'P kc001 kc002 kc003 kc00 kb001 kb002 kb003 kb004 ka001 ka002 ka003 ka00\n\nEnd.';
    const second =
      'P kc001 kc002 kc003 kc004 kb001 kb002 kb003 ka001 ka002 ka003 ka004 ka005\n\nEnd.';
    const both =
      'P kc001 kc002 kc003 kc004 kb001 kb002 kb003 kb004 ka001 ka002 ka003 ka004 ka005\n\nEnd.';
    expect(keptBothText(first, second)).toBe(both);
    expect(keptBothText(second, first)).toBe(both);
  });

  test('words are never split or run together: each side’s whole, the other’s first', () => {
    // "ka010kb005", "kba005": letters of two words merged as one.
    expect(keptBothText('X ka009 kb004 kb005', 'X ka009 ka010 kb004')).toBe(
      'X ka009 ka010 kb004 kb005',
    );
    expect(keptBothText('X kb004 kb005 kc005', 'X kb004 ka005 kc005 kc006')).toBe(
      'X kb004 kb005 ka005 kc005 kc006',
    );
  });
});

describe('merged word by word: a seeded run of people typing words into one paragraph', () => {
  /** A small seeded generator (the same run every time). */
  function generator(seed: number) {
    let state = seed;
    return (n: number) => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return Math.floor((state / 2_147_483_648) * n);
    };
  }
  const inserted = (words: string[], tokens: string[], pick: (n: number) => number) => {
    const out = [...words];
    for (const token of tokens) out.splice(1 + pick(out.length), 0, token);
    return out;
  };
  const text = (words: string[]) => `${words.join(' ')}\n\nEnd.`;
  /** Every word of `expected` once in `merged`, and no other (none split, run together). */
  const eachOnce = (merged: string, expected: string[]) => {
    const words = merged.split(/\s+/).filter(Boolean);
    return (
      words.length === expected.length + 1 &&
      expected.every((word) => words.filter((w) => w === word).length === 1)
    );
  };

  test('a tab’s unsent words and the others’ typed meanwhile: each once, none split (reopenedText)', () => {
    // The hostile pass on three tabs: "kb013a004", "kc00kb0075" in every tab and the draft.
    const pick = generator(7);
    for (let round = 0; round < 500; round += 1) {
      const base = ['P', ...Array.from({ length: pick(8) }, (_, i) => `kx${i}`)];
      const mine = Array.from({ length: 1 + pick(4) }, (_, i) => `ka${round}x${i}`);
      const theirs = Array.from({ length: 1 + pick(6) }, (_, i) => `kb${round}x${i}`);
      const merged = reopenedText(
        text(inserted(base, mine, pick)),
        text(base),
        text(inserted(base, theirs, pick)),
      );
      expect({ round, merged, ok: eachOnce(merged, [...base, ...mine, ...theirs]) }).toEqual({
        round,
        merged,
        ok: true,
      });
    }
  });

  test('two copies that each missed some of the other’s words: each once, none split (keptBothText)', () => {
    const pick = generator(99);
    for (let round = 0; round < 500; round += 1) {
      const base = ['P', ...Array.from({ length: pick(8) }, (_, i) => `kx${i}`)];
      const tokens = Array.from({ length: 2 + pick(8) }, (_, i) => `k${round}x${i}`);
      const all = inserted(base, tokens, pick);
      const a = all.filter((word) => !tokens.includes(word) || pick(2) === 0);
      const b = all.filter((word) => !tokens.includes(word) || pick(2) === 0);
      const merged = keptBothText(text(a), text(b));
      const expected = [...new Set([...a, ...b])];
      expect({ round, merged, ok: eachOnce(merged, expected) }).toEqual({
        round,
        merged,
        ok: true,
      });
    }
  });
});
