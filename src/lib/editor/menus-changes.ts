// Owns the changes the menus form's buttons make (navigation-menus-form.tsx, issue 27): move
// an entry up or down within its menu, remove it, add a page or a link at the end of a menu.
// One function for both sides: the browser makes them in place (keeping focus and announcing
// them), and the action makes the same ones for a form posted without JavaScript.
// Browser-safe: nothing here may import server-only modules.
import { MENU_MAX, type MenuName } from '../content/navigation-menus';
import type { MenuFormEntry } from './forms';

const MENU_WORDS: Record<MenuName, string> = { header: 'header', footer: 'footer' };

/** What an entry is called in an announcement: its label, its page's title, or "the link". */
const nameOf = (entry: MenuFormEntry) =>
  entry.label.trim() ||
  entry.target?.title ||
  (entry.kind === 'link' ? 'The new link' : 'The page');

/**
 * A change the buttons ask for, made on the entries (nothing is saved): moved within its
 * menu, removed, or added. Returns the entries, what to announce and which button to focus,
 * or a refusal in words.
 */
export function changedMenus<Entry extends MenuFormEntry>(
  entries: Entry[],
  intent: string,
  added?: { id: number; title: string; slug: string },
): { entries: (Entry | MenuFormEntry)[]; announce?: string; focus?: string; message?: string } {
  const [verb = '', first = '', second = ''] = intent.split(':');
  if (verb === 'up' || verb === 'down' || verb === 'remove') {
    const at = Number(first);
    const entry = entries[at];
    if (!Number.isInteger(at) || !entry) return { entries };
    const inMenu = entries.flatMap((each, index) => (each.menu === entry.menu ? [index] : []));
    const position = inMenu.indexOf(at);
    if (verb === 'remove') {
      const rest = entries.filter((_, index) => index !== at);
      // Focus stays in the menu: on the next entry's Remove, else on the menu's Add a link.
      return {
        entries: rest,
        announce: `${nameOf(entry)} removed from the ${MENU_WORDS[entry.menu]}.`,
        focus: rest[at]?.menu === entry.menu ? `remove:${at}` : `add-link:${entry.menu}`,
      };
    }
    const to = inMenu[verb === 'up' ? position - 1 : position + 1];
    if (to === undefined) return { entries, focus: `${verb}:${at}` };
    const moved = [...entries];
    [moved[at], moved[to]] = [moved[to] as Entry, entry];
    return {
      entries: moved,
      announce: `${nameOf(entry)} moved to ${verb === 'up' ? position : position + 2} of ${inMenu.length} in the ${MENU_WORDS[entry.menu]}.`,
      focus: `${verb}:${to}`,
    };
  }
  if (verb === 'to') {
    // Dropped (drag and drop): `to:<from>:<to>`, within one menu.
    const from = Number(first);
    const to = Number(second);
    const entry = entries[from];
    if (!entry || entries[to]?.menu !== entry.menu || from === to) return { entries };
    const moved = entries.filter((_, index) => index !== from);
    moved.splice(to, 0, entry);
    const inMenu = moved.filter((each) => each.menu === entry.menu);
    return {
      entries: moved,
      announce: `${nameOf(entry)} moved to ${inMenu.indexOf(entry) + 1} of ${inMenu.length} in the ${MENU_WORDS[entry.menu]}.`,
    };
  }
  if (verb === 'add-link' || verb === 'add-page') {
    const menu: MenuName = first === 'footer' ? 'footer' : 'header';
    const count = entries.filter((entry) => entry.menu === menu).length;
    if (count >= MENU_MAX[menu])
      return {
        entries,
        message: `The ${MENU_WORDS[menu]} holds ${MENU_MAX[menu]} entries at most: remove one first.`,
      };
    let entry: MenuFormEntry;
    if (verb === 'add-page') {
      if (!added || String(added.id) !== second) return { entries };
      if (entries.some((each) => each.menu === menu && each.page === added.id))
        return { entries, message: `“${added.title}” is in the ${MENU_WORDS[menu]} already.` };
      entry = {
        menu,
        kind: 'page',
        page: added.id,
        label: '',
        url: '',
        target: { title: added.title, slug: added.slug },
      };
    } else entry = { menu, kind: 'link', page: null, label: '', url: '' };
    // At the end of its menu: the header's entries come before the footer's.
    const lastOfMenu = entries.findLastIndex((each) => each.menu === menu);
    const at = lastOfMenu === -1 ? (menu === 'header' ? 0 : entries.length) : lastOfMenu + 1;
    return {
      entries: [...entries.slice(0, at), entry, ...entries.slice(at)],
      announce: `${nameOf(entry)} added to the ${MENU_WORDS[menu]}, at ${count + 1} of ${count + 1}.`,
      focus: `label:${at}`,
    };
  }
  return { entries };
}
