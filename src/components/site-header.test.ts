// The header's fold (issue 27): the row shows what fits, the rest goes into "More"; phones fold
// a long menu into "Menu". The demo's four links stay in the row, as before menus had labels.
import { describe, expect, test } from 'bun:test';
import { foldsOnPhones, rowLinkCount, widthOf } from './site-header';

const DEMO = ['Getting started', 'Writing in Markdown', 'About', 'Contact'];
const SITE = { title: 'Folio', tagline: 'Pages worth reading.' };

describe('the header row', () => {
  test('the demo’s four links all fit the row and stay unfolded on phones', () => {
    expect(rowLinkCount(DEMO, SITE)).toBe(4);
    expect(foldsOnPhones(DEMO)).toBe(false);
  });

  test('a long menu shows what fits and folds the rest; at least the first link shows', () => {
    const long = Array.from({ length: 20 }, (_, i) => `A rather long label number ${i}`);
    const shown = rowLinkCount(long, SITE);
    expect(shown).toBeGreaterThanOrEqual(1);
    expect(shown).toBeLessThan(20);
    expect(foldsOnPhones(long)).toBe(true);
    expect(rowLinkCount(['x'.repeat(60)], SITE)).toBe(1);
    // A long name and tagline leave the links the second line, beside the search box.
    const wordy = {
      title: 'A site with a long name',
      tagline: 'And a tagline that fills the line',
    };
    expect(rowLinkCount(DEMO, wordy)).toBe(2);
    // Five short links fold on phones (as before), three long ones too (three rows).
    expect(foldsOnPhones(['A', 'B', 'C', 'D', 'E'])).toBe(true);
    expect(
      foldsOnPhones([
        'A very long label for a page',
        'Another long label for one',
        'And a third long label',
      ]),
    ).toBe(true);
  });

  test('wide characters count twice', () => {
    expect(widthOf('日本語')).toBe(6);
    expect(widthOf('abc')).toBe(3);
  });
});
