'use server';
// Owns the site settings action (site-settings-form.tsx): title, tagline, footer, language,
// accent colour, default social image, tab icon and what the home page shows. The header's and
// footer's menus have their own screen and action (navigation.ts).
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

/** The site's settings form (title, tagline, footer, language, colour, images, home page). */
export const saveSiteSettings = editorForm({
  read: (input) => {
    const form = readForm(siteSettingsSchema, input);
    const { title, tagline, footer, homeShows, settings_version: version } = form;
    const { language, accent, social_image: socialImage, favicon } = form;
    return {
      values: { title, tagline, footer, language, accent, socialImage, favicon, homeShows },
      version,
    };
  },
  refused: ({ values }, { message }): SettingsFormState => ({ values, message }),
  // Signed out without JavaScript: the sign-in page hands back every field, not only the title.
  kept: async ({ values }): Promise<KeptText> =>
    [
      { name: 'title', value: values.title },
      { name: 'tagline', value: values.tagline },
      { name: 'footer', value: values.footer },
      { name: 'language', value: values.language ?? '' },
      { name: 'accent colour', value: values.accent ?? '' },
      { name: 'social image', value: values.socialImage ?? '' },
      { name: 'tab icon', value: values.favicon ?? '' },
    ].filter(({ value }) => value.trim() !== ''),
  may: () => [{ action: 'settings.edit' }],
  run: async ({ values, version }): Promise<SettingsFormState> => {
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
          // The menus are left out: their own screen saves them (navigation.ts).
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
