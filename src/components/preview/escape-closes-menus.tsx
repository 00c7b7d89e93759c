'use client';

import { useEffect } from 'react';

// The editors' folded menus (the bar's "Menu", a page's "Page actions", the share links) are
// <details>, so they open without JavaScript; what <details> does not do is close on Escape,
// as every other menu a keyboard user meets does (hostile pass, issue 26). With JavaScript,
// Escape closes the open menu the focus is in (or, with the focus elsewhere, the last one
// opened) and puts the focus back on its summary, so the keyboard is where the menu was.
export function EscapeClosesMenus() {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      const focused = document.activeElement;
      const around = focused?.closest<HTMLDetailsElement>('details[open]');
      const menus = document.querySelectorAll<HTMLDetailsElement>('details[open]');
      const menu = around ?? menus[menus.length - 1];
      if (!menu) return;
      // A dialog or the editor's own Escape (the link dialog, the search panel) went first.
      if (focused?.closest('dialog[open], .cm-panels')) return;
      menu.open = false;
      menu.querySelector<HTMLElement>(':scope > summary')?.focus();
      event.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return null;
}
