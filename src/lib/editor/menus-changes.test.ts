// The menus form's buttons (issue 27), as the browser and the no-JavaScript action both make
// them: moves stay inside a menu, the focus follows the moved entry, each change is announced.
import { describe, expect, test } from 'bun:test';
import type { MenuFormEntry } from './forms';
import { changedMenus } from './menus-changes';

const page = (menu: 'header' | 'footer', id: number, title: string): MenuFormEntry => ({
  menu,
  kind: 'page',
  page: id,
  label: '',
  url: '',
  target: { title, slug: title.toLowerCase() },
});
const ENTRIES: MenuFormEntry[] = [
  page('header', 1, 'One'),
  page('header', 2, 'Two'),
  { ...page('header', 3, 'Three'), label: 'Third' },
  page('footer', 4, 'Four'),
];
const names = (entries: MenuFormEntry[]) =>
  entries.map((entry) => `${entry.menu[0]}:${entry.label || entry.target?.title || entry.kind}`);

describe('the menus form’s changes', () => {
  test('Move up and Move down swap within a menu; focus follows; the move is announced', () => {
    const up = changedMenus(ENTRIES, 'up:2');
    expect(names(up.entries)).toEqual(['h:One', 'h:Third', 'h:Two', 'f:Four']);
    expect(up.focus).toBe('up:1');
    expect(up.announce).toBe('Third moved to 2 of 3 in the header.');
    const down = changedMenus(ENTRIES, 'down:0');
    expect(names(down.entries)).toEqual(['h:Two', 'h:One', 'h:Third', 'f:Four']);
    expect(down.announce).toBe('One moved to 2 of 3 in the header.');
  });

  test('the ends of a menu are ends: nothing moves into the other menu', () => {
    expect(changedMenus(ENTRIES, 'down:2').entries).toEqual(ENTRIES);
    expect(changedMenus(ENTRIES, 'up:3').entries).toEqual(ENTRIES);
    expect(changedMenus(ENTRIES, 'up:0').entries).toEqual(ENTRIES);
    // A dragged entry is dropped in its own menu only.
    expect(changedMenus(ENTRIES, 'to:3:0').entries).toEqual(ENTRIES);
  });

  test('a drop moves an entry to where it was dropped', () => {
    const dropped = changedMenus(ENTRIES, 'to:0:2');
    expect(names(dropped.entries)).toEqual(['h:Two', 'h:Third', 'h:One', 'f:Four']);
    expect(dropped.announce).toBe('One moved to 3 of 3 in the header.');
  });

  test('Remove takes the entry out; focus goes to the next entry, or to Add a link', () => {
    const removed = changedMenus(ENTRIES, 'remove:1');
    expect(names(removed.entries)).toEqual(['h:One', 'h:Third', 'f:Four']);
    expect(removed.focus).toBe('remove:1');
    expect(removed.announce).toBe('Two removed from the header.');
    expect(changedMenus(ENTRIES, 'remove:3').focus).toBe('add-link:footer');
  });

  test('a link or a page is added at the end of its menu; a page twice or a full menu is refused', () => {
    const link = changedMenus(ENTRIES, 'add-link:header');
    expect(names(link.entries)).toEqual(['h:One', 'h:Two', 'h:Third', 'h:link', 'f:Four']);
    expect(link.focus).toBe('label:3');
    const added = changedMenus(ENTRIES, 'add-page:footer:9', {
      id: 9,
      title: 'Nine',
      slug: 'nine',
    });
    expect(names(added.entries)).toEqual(['h:One', 'h:Two', 'h:Third', 'f:Four', 'f:Nine']);
    expect(
      changedMenus(ENTRIES, 'add-page:header:2', { id: 2, title: 'Two', slug: 'two' }).message,
    ).toBe('“Two” is in the header already.');
    const full = Array.from({ length: 20 }, (_, i) => page('footer', 100 + i, `P${i}`));
    expect(changedMenus(full, 'add-link:footer').message).toBe(
      'The footer holds 20 entries at most: remove one first.',
    );
    // An empty footer gets its first entry after the header's.
    const first = changedMenus(ENTRIES.slice(0, 3), 'add-link:footer');
    expect(names(first.entries)).toEqual(['h:One', 'h:Two', 'h:Third', 'f:link']);
  });
});
