'use server';
// Owns the site settings action (site-settings-form.tsx): title, tagline, footer, language,
// accent colour, default social image, and which published pages the header links to, in what
// order.
import { unstable_redirect as redirect } from 'waku/router/server';
import { contentStore, isContentError, settingsVersion } from '../../content/content';
import { DEFAULT_ACCENT, DEFAULT_LANGUAGE } from '../../content/settings';
import { mediaHashOf } from '../../media/media-refs';
import type { KeptText } from '../../observability/fallback-page';
import { editorForm, readForm, refuseForm } from '../action';
import { type SettingsFormState, siteSettingsSchema } from '../forms';

/**
 * A library image as typed: its address as the library shows it (`/media/<hash>`, on this
 * site or absolute) or its bare hash; empty is none (null), absent keeps what is stored
 * (undefined). Anything else goes on as typed, for the store's schema to refuse in its words.
 */
function libraryImageOf(typed: string | undefined): string | null | undefined {
  const value = typed?.trim();
  if (value === undefined) return undefined;
  if (value === '') return null;
  return mediaHashOf(value.replace(/^https?:\/\/[^/]+/, '')) ?? value;
}

/** The site's settings form (title, tagline, footer, header navigation). */
export const saveSiteSettings = editorForm({
  read: (input) => {
    const form = readForm(siteSettingsSchema, input);
    const { title, tagline, footer, navigation, homeShows, settings_version: version } = form;
    const { language, accent, social_image: socialImage, favicon } = form;
    const typedPosition = (id: string) => {
      const value = form[`position-${id}`];
      return typeof value === 'string' ? value.slice(0, 10) : '';
    };
    // The order: each chosen page's position field (1, 2, 3…), then the list order.
    const position = (id: string) => Number(typedPosition(id) || Number.NaN);
    const mode = form['navigation-mode'];
    return {
      values: {
        title,
        tagline,
        footer,
        navigation,
        language,
        accent,
        socialImage,
        favicon,
        homeShows,
        mode,
        positions: Object.fromEntries(navigation.map((id) => [id, typedPosition(id)])),
      },
      mode,
      position,
      version,
      finding: form.intent === 'find',
      find: form.find.slice(0, 100),
    };
  },
  check: ({ values, mode, position, finding }): SettingsFormState | undefined => {
    // A search saves nothing, so nothing in the form can refuse it.
    if (finding) return undefined;
    if (mode !== 'all' && mode !== 'chosen') {
      refuseForm(422);
      return { values, message: 'Choose which pages the header lists.' };
    }
    if (
      mode === 'chosen' &&
      values.navigation.some((id) => {
        const at = position(id);
        return !Number.isInteger(at) || at < 1 || at > 99;
      })
    ) {
      refuseForm(422);
      return { values, message: 'Give each chosen page a position from 1 to 99.' };
    }
    return undefined;
  },
  refused: ({ values }, { message }): SettingsFormState => ({ values, message }),
  // Signed out without JavaScript: the sign-in page hands back every field, the header's
  // choices too (by title, in the order asked), not only the title.
  kept: async ({ values, mode, position }): Promise<KeptText> => {
    const kept = [
      { name: 'title', value: values.title },
      { name: 'tagline', value: values.tagline },
      { name: 'footer', value: values.footer },
      { name: 'language', value: values.language ?? '' },
      { name: 'accent colour', value: values.accent ?? '' },
      { name: 'social image', value: values.socialImage ?? '' },
      { name: 'tab icon', value: values.favicon ?? '' },
    ].filter(({ value }) => value.trim() !== '');
    let navigation = "None: the site's name links to the home page.";
    if (mode !== 'all') {
      let titles = new Map<number, string>();
      try {
        const named = await contentStore().publishedByIds(values.navigation.map(Number));
        titles = new Map(named.map((page) => [page.id, page.title]));
      } catch {
        // The titles are a courtesy: without the database the pages are named by number.
      }
      navigation = values.navigation
        .map((id, index) => ({ id, index, at: position(id) }))
        .sort((a, b) => (a.at || 100) - (b.at || 100) || a.index - b.index)
        .map(({ id, at }) => {
          const title = titles.get(Number(id)) ?? `Page ${id}`;
          return `${Number.isFinite(at) ? at : '?'}. ${title}`;
        })
        .join('\n');
      if (navigation === '') navigation = 'No pages chosen.';
    }
    return [...kept, { name: 'header navigation', value: navigation }];
  },
  may: () => [{ action: 'settings.edit' }],
  run: async ({ values, mode, position, version, finding, find }): Promise<SettingsFormState> => {
    const { navigation } = values;
    const ordered = navigation
      .map((id, index) => ({ id: Number(id), index, at: position(id) }))
      .filter((entry) => Number.isSafeInteger(entry.id) && entry.id > 0)
      .sort((a, b) => (a.at || 100) - (b.at || 100) || a.index - b.index)
      .map((entry) => entry.id);
    if (finding) {
      // The picker's search: the form comes back as typed, with the pages ticked (in their
      // order) and what the search found; nothing is saved (issue 25: a search that reloaded
      // the screen threw away what was typed above it).
      const store = contentStore();
      const [ticked, found] = await Promise.all([
        store.publishedByIds(ordered),
        store.findPublishedPages(find),
      ]);
      ticked.sort((a, b) => ordered.indexOf(a.id) - ordered.indexOf(b.id));
      const tickedIds = new Set(ticked.map((page) => page.id));
      return {
        values,
        picker: {
          find,
          offered: [...ticked, ...found.filter((page) => !tickedIds.has(page.id))],
          version,
        },
      };
    }
    // A page unpublished since the form was made (or an id nobody offered) is not dropped
    // silently: the header would lose links the editor thinks they chose.
    if (mode === 'chosen') {
      // Only the chosen ids are looked up: the site may have 100 000 pages (issue 25).
      const published = new Set(
        (await contentStore().publishedByIds(ordered)).map((page) => page.id),
      );
      if (ordered.some((id) => !published.has(id)) || ordered.length !== navigation.length) {
        refuseForm(422);
        return {
          values,
          message: 'Some of the chosen pages are not published (any more): choose again.',
        };
      }
    }
    const store = contentStore();
    // The image as the library shows its address (`/media/<hash>`) or its bare hash; empty
    // for the generated card. Anything else is refused by the store's schema, in its words.
    const socialImage = libraryImageOf(values.socialImage);
    const favicon = libraryImageOf(values.favicon);
    // An emptied field means the default.
    const language = values.language?.trim() === '' ? DEFAULT_LANGUAGE : values.language;
    const accent = values.accent?.trim() === '' ? DEFAULT_ACCENT : values.accent;
    try {
      await store.saveSiteSettings(
        {
          title: values.title,
          tagline: values.tagline,
          footer: values.footer,
          navigation: mode === 'all' ? null : [...new Set(ordered)],
          language,
          accent,
          socialImage,
          favicon,
          ...(values.homeShows === 'page' || values.homeShows === 'posts'
            ? { homeShows: values.homeShows }
            : {}),
        },
        { version },
      );
    } catch (error) {
      if (!isContentError(error) || error.code !== 'conflict') throw error;
      // Another tab saved since this form was made: keep what was typed, show what is saved,
      // and carry its version, so saving again is a choice made with both in view.
      const now = await store.getSiteSettings();
      refuseForm(409);
      return {
        values,
        message: error.message,
        current: {
          title: now.title,
          tagline: now.tagline,
          footer: now.footer,
          version: settingsVersion(now),
        },
      };
    }
    redirect('/preview?settings&notice=settings-saved', 303);
  },
  rejected: ({ values }, error): SettingsFormState | undefined => {
    if (error.code !== 'invalid') return undefined;
    refuseForm(422);
    return { values, message: error.message };
  },
});
