'use server';
// Owns the menus screen's action (navigation-menus-form.tsx, issue 27): the header's and the
// footer's entries — pages under their titles or a label, and external links — in the order
// the editors choose. With JavaScript the form moves, removes and adds links in the browser and
// comes here to search, add a page and save; without it every button is a submit, and a change
// comes back made and unsaved (as the page search does), so nothing typed is ever lost. A save
// goes through the site settings' one write, its version refusing a stale tab.
import { unstable_redirect as redirect } from 'waku/router/server';
import { contentStore, isContentError, settingsVersion } from '../../content/content';
import type { MenuEntry, MenuName } from '../../content/navigation-menus';
import { NAVIGATION_SCREEN } from '../../http/routes';
import type { KeptText } from '../../observability/fallback-page';
import { editorForm, readForm, refuseForm } from '../action';
import { type MenuFormEntry, type MenusFormState, menusFormSchema } from '../forms';
import { changedMenus } from '../menus-changes';

/** The posted fields as entries, in their order (the schema checked they line up). */
function entriesOf(form: {
  menu: string[];
  kind: string[];
  page: string[];
  label: string[];
  url: string[];
}): MenuFormEntry[] {
  return form.menu.map((menu, index) => ({
    menu: menu === 'footer' ? 'footer' : 'header',
    kind: form.kind[index] === 'link' ? 'link' : 'page',
    page: form.page[index] ? Number(form.page[index]) : null,
    label: (form.label[index] ?? '').slice(0, 200),
    url: (form.url[index] ?? '').slice(0, 2_100),
  }));
}

/** Each page entry's page as it is now (title and address, or null: not published). */
async function withTargets(entries: MenuFormEntry[]): Promise<MenuFormEntry[]> {
  const ids = entries.flatMap((entry) => (entry.page === null ? [] : [entry.page]));
  const published = new Map(
    (await contentStore().publishedByIds(ids)).map((page) => [page.id, page]),
  );
  return entries.map((entry) => {
    if (entry.kind !== 'page' || entry.page === null) return entry;
    const page = published.get(entry.page);
    return { ...entry, target: page ? { title: page.title, slug: page.slug } : null };
  });
}

/** The entries as the settings store them: a page (its label when one is typed) or a link. */
function menuOf(entries: MenuFormEntry[], menu: MenuName): MenuEntry[] {
  return entries
    .filter((entry) => entry.menu === menu)
    .map((entry): MenuEntry => {
      const label = entry.label.trim();
      if (entry.kind === 'link') return { url: entry.url.trim(), label };
      return label ? { page: entry.page ?? 0, label } : { page: entry.page ?? 0 };
    });
}

export const saveMenus = editorForm({
  read: (input) => {
    const form = readForm(menusFormSchema, input);
    return {
      entries: entriesOf(form),
      intent: form.intent,
      version: form.settings_version,
      find: form.find,
    };
  },
  refused: ({ entries, find }, { message }): MenusFormState => ({ entries, find, message }),
  // Signed out without JavaScript: the sign-in page hands back each menu in words, pages by
  // their titles where the database can say them.
  kept: async ({ entries: posted }): Promise<KeptText> => {
    let entries = posted;
    try {
      entries = await withTargets(posted);
    } catch {
      // The titles are a courtesy: without the database the pages are named by number.
    }
    return (['header', 'footer'] as const).map((menu) => ({
      name: `${menu} menu`,
      value:
        entries
          .filter((entry) => entry.menu === menu)
          .map((entry, index) =>
            entry.kind === 'link'
              ? `${index + 1}. ${entry.label} <${entry.url}>`
              : `${index + 1}. ${entry.label || entry.target?.title || `Page ${entry.page}`}`,
          )
          .join('\n') || '(none)',
    }));
  },
  // The menus are the site's settings: who may change those may change these.
  may: () => [{ action: 'settings.edit' }],
  run: async ({ entries: posted, intent, version, find }): Promise<MenusFormState> => {
    const store = contentStore();
    const round = crypto.randomUUID();
    const entries = await withTargets(posted);
    if (intent !== 'save') {
      // A search, or a change asked for without JavaScript: made, shown, not saved.
      const [verb, , id] = intent.split(':');
      const found = await store.findPublishedPages(find);
      let added: { id: number; title: string; slug: string } | undefined;
      if (verb === 'add-page') {
        const [page] = await store.publishedByIds([Number(id)]);
        if (!page) {
          refuseForm(422);
          return {
            entries,
            find,
            found,
            version,
            round,
            message: 'That page is not published (any more): find another.',
          };
        }
        added = page;
      }
      const change = changedMenus(entries, intent, added);
      if (change.message) refuseForm(422);
      return { ...change, find, found, version, round };
    }
    const current = await store.getSiteSettings();
    const header = menuOf(entries, 'header');
    // A page added since the menus were saved must be published: one unpublished (or deleted)
    // since it was offered would be left out of the menu without a word. One chosen before
    // and unpublished since may stay (marked on the screen; it is back once republished).
    const before = new Set(
      [...(current.navigation ?? []), ...current.footerMenu].map((entry) => entry.page),
    );
    const added = entries.filter(
      (entry) => entry.kind === 'page' && !before.has(entry.page ?? undefined) && !entry.target,
    );
    if (added.length > 0) {
      refuseForm(422);
      return {
        entries,
        find,
        version,
        round,
        message: `Not saved: ${added.length === 1 ? 'a page added is' : 'pages added are'} not published (any more). Remove ${added.length === 1 ? 'it' : 'them'}, or publish first.`,
      };
    }
    try {
      await store.saveSiteSettings(
        {
          title: current.title,
          tagline: current.tagline,
          footer: current.footer,
          navigation: header.length > 0 ? header : null,
          footerMenu: menuOf(entries, 'footer'),
        },
        { version },
      );
    } catch (error) {
      if (!isContentError(error)) throw error;
      if (error.code === 'conflict') {
        // Another tab saved since this form was made: the menus as typed stay, the form
        // carries the new version, so saving again is a choice made knowing it.
        refuseForm(409);
        return {
          entries,
          find,
          round,
          version: settingsVersion(await store.getSiteSettings()),
          message: `${error.message} Your menus are kept below: save again to use them, or reload to see what was saved.`,
        };
      }
      if (error.code !== 'invalid') throw error;
      refuseForm(422);
      return { entries, find, version, round, message: `Not saved: ${error.message}` };
    }
    redirect(`${NAVIGATION_SCREEN}&notice=menus-saved`, 303);
  },
});
