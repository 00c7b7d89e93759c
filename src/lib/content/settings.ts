// Owns the site's own settings (title, tagline, footer, the header's and footer's menus —
// whose entries navigation-menus.ts defines —, language, accent colour, default social image,
// tab icon): their schema,
// reading them with defaults, and saving them in one transaction that visitors see on their
// next request, like a publish. A save names the version of the settings its form was made
// from (a hash of the stored values, so no row has to be kept in step): a form opened before
// another tab's save is refused instead of silently reverting that save.
import 'server-only';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Query } from '../data/db';
import { lineText } from './clean-text';
import { ContentError } from './errors';
import { recordEvent } from './events';
import { FOOTER_MAX, SITE_TITLE_MAX, TAGLINE_MAX } from './field-limits';
import {
  FOOTER_MENU_MAX,
  MENU_KEYS,
  MENU_MAX,
  type MenuName,
  menuPageIds,
  menuSchema,
  NAVIGATION_MAX,
  parseMenu,
} from './navigation-menus';
import { socialImageProblem } from './seo-fields';
import type { StoreContext } from './store-context';
import type { SiteSettings, SiteSettingsInput } from './types';

/** What a site that never chose says (issue 27). */
export const DEFAULT_LANGUAGE = 'en';
export const DEFAULT_ACCENT = '#1f5fbf';

/**
 * A BCP 47 language tag as browsers and Open Graph read it: a language (2–3 letters), then
 * optional script, region and variant subtags (`en`, `en-GB`, `pt-BR`, `zh-Hant-TW`,
 * `de-CH-1996`). Private-use and grandfathered tags are refused: nothing reads them.
 */
const LANGUAGE_TAG = /^[a-z]{2,3}(-[a-z]{4})?(-([a-z]{2}|\d{3}))?(-([a-z\d]{5,8}|\d[a-z\d]{3}))*$/i;
const ACCENT = /^#[0-9a-f]{6}$/i;
const MEDIA_HASH = /^[0-9a-f]{32}$/;

/** `en-gb` → `en-GB`, `zh-hant-tw` → `zh-Hant-TW`: the case BCP 47 recommends. */
function canonicalLanguage(tag: string): string {
  return tag
    .split('-')
    .map((part, index) => {
      if (index === 0) return part.toLowerCase();
      if (part.length === 4 && /^[a-z]+$/i.test(part))
        return part[0]?.toUpperCase() + part.slice(1).toLowerCase();
      if (part.length === 2) return part.toUpperCase();
      return part.toLowerCase();
    })
    .join('-');
}

/** Languages written right to left (their script's default): Arabic, Hebrew, Persian, Urdu… */
const RIGHT_TO_LEFT = new Set([
  'ar',
  'arc',
  'ckb',
  'dv',
  'fa',
  'he',
  'ks',
  'ku-arab',
  'ps',
  'sd',
  'ug',
  'ur',
  'yi',
]);

/**
 * The direction a site's language is written in: `<html dir>` (hostile pass: a site in Hebrew
 * or Arabic was laid out left to right). A script subtag decides where there is one.
 */
export function directionOf(language: string): 'rtl' | 'ltr' {
  const [lang = '', script = ''] = language.toLowerCase().split('-');
  if (/^[a-z]{4}$/.test(script))
    return ['arab', 'hebr', 'thaa', 'syrc', 'nkoo', 'adlm', 'rohg'].includes(script)
      ? 'rtl'
      : 'ltr';
  return RIGHT_TO_LEFT.has(lang) ? 'rtl' : 'ltr';
}

/** `en-GB` → `en_GB`, `en` → null: og:locale names a language with its territory only. */
export function ogLocaleOf(language: string): string | null {
  const [lang, ...rest] = language.split('-');
  const region = rest.find((part) => /^[A-Z]{2}$/.test(part));
  return region ? `${lang}_${region}` : null;
}

// The menus' rules and stored form are navigation-menus.ts's; re-exported for the readers here.
export { NAVIGATION_MAX } from './navigation-menus';

/**
 * Whether a menu shows this page while it is published: the header's first NAVIGATION_MAX
 * entries and the footer's first FOOTER_MENU_MAX, what the menus' read (read-model.ts menus)
 * takes. A page's publish, unpublish or rename changes its link on every page then, so a
 * write's invalidation (page-writes.ts visibleChange) asks this.
 */
export function menusShow(pageIds: readonly number[], page: { id: number; slug: string }): boolean {
  // No menu chosen: the header is the site's name alone (issue 25), so it shows no page.
  return pageIds.includes(page.id);
}

/** The pages the two menus name (as menusShow takes them), inside the caller's transaction. */
export async function menuPagesIn(q: Query): Promise<readonly number[]> {
  const rows = await q<{ key: string; value: string }>`
    SELECT key, value FROM settings WHERE key IN (${MENU_KEYS.header}, ${MENU_KEYS.footer})`;
  const menu = (name: MenuName) =>
    menuPageIds(parseMenu(rows.find((row) => row.key === MENU_KEYS[name])?.value)).slice(
      0,
      MENU_MAX[name],
    );
  return [...menu('header'), ...menu('footer')];
}

/**
 * The version of a set of settings: a hash of what is stored. Two tabs showing the same values
 * hold the same version, and a save that changes nothing leaves it as it was.
 */
export function settingsVersion(settings: SiteSettings): string {
  const { title, tagline, footer, navigation, language, accent, socialImage, favicon, homeShows } =
    settings;
  // The home page's choice and the footer's menu only when they are not the default: versions
  // made before they existed stay.
  return createHash('sha256')
    .update(
      JSON.stringify([
        title,
        tagline,
        footer,
        navigation,
        language,
        accent,
        socialImage,
        favicon,
        ...(homeShows === 'posts' ? [1] : []),
        ...(settings.footerMenu.length > 0 ? [settings.footerMenu] : []),
      ]),
    )
    .digest('hex')
    .slice(0, 32);
}

/** Stored rows as settings, with the defaults for what was never saved. */
function settingsOf(rows: readonly { key: string; value: string }[]): SiteSettings {
  const value = (key: string) => rows.find((row) => row.key === key)?.value;
  return {
    title: value('site_title') ?? 'Folio',
    tagline: value('site_tagline') ?? '',
    footer: value('site_footer') ?? '',
    navigation: parseMenu(value(MENU_KEYS.header)),
    footerMenu: parseMenu(value(MENU_KEYS.footer)) ?? [],
    language: value('site_language') ?? DEFAULT_LANGUAGE,
    accent: value('site_accent') ?? DEFAULT_ACCENT,
    socialImage: value('site_social_image') ?? null,
    favicon: value('site_favicon') ?? null,
    homeShows: value('site_home_shows') === 'posts' ? 'posts' : 'page',
  };
}

export const siteSettingsSchema = z.object({
  // Each is one line, cleaned as a page's title is (clean-text.ts): NUL never reaches the
  // database (PostgreSQL refuses it), and no invisible character changes how the header reads.
  title: lineText().pipe(
    z
      .string()
      .trim()
      .min(1, 'Enter the site title.')
      .max(SITE_TITLE_MAX, `Use at most ${SITE_TITLE_MAX} characters.`),
  ),
  tagline: lineText().pipe(
    z.string().trim().max(TAGLINE_MAX, `Use at most ${TAGLINE_MAX} characters.`),
  ),
  footer: lineText().pipe(
    z.string().trim().max(FOOTER_MAX, `Use at most ${FOOTER_MAX} characters.`),
  ),
  // Left out (the settings form: the menus have their own screen): kept as stored.
  navigation: menuSchema(NAVIGATION_MAX, 'header').nullable().optional(),
  footerMenu: menuSchema(FOOTER_MENU_MAX, 'footer').optional(),
  language: z
    .string()
    .trim()
    .refine(
      (tag) => tag.length <= 35 && LANGUAGE_TAG.test(tag),
      'Use a language tag such as en, en-GB or pt-BR.',
    )
    .transform(canonicalLanguage)
    .optional(),
  accent: z
    .string()
    .trim()
    .regex(ACCENT, 'Give the accent colour as # and six hexadecimal digits, such as #1f5fbf.')
    .transform((colour) => colour.toLowerCase())
    .optional(),
  socialImage: z
    .string()
    .regex(MEDIA_HASH, 'Choose the social image from the media library.')
    .nullable()
    .optional(),
  favicon: z
    .string()
    .regex(MEDIA_HASH, 'Choose the icon from the media library.')
    .nullable()
    .optional(),
  // Left out (a caller that does not know it): kept as it is.
  homeShows: z.enum(['page', 'posts']).optional(),
});

const storedSettings = (q: Query) =>
  q<{ key: string; value: string }>`
    SELECT key, value FROM settings
    WHERE key IN ('site_title', 'site_tagline', 'site_footer', 'site_navigation',
                  'site_language', 'site_accent', 'site_social_image', 'site_favicon',
                  'site_home_shows', 'site_footer_menu')`;

/** The settings as stored, through any query (the social card's check reads them so). */
export async function siteSettingsIn(q: Query): Promise<SiteSettings> {
  return settingsOf(await storedSettings(q));
}

export function siteSettings({ read, write, now }: StoreContext) {
  return {
    /** The site's title, tagline, footer, header navigation, language, accent and image. */
    async getSiteSettings(): Promise<SiteSettings> {
      return settingsOf(await read(storedSettings));
    },

    /**
     * Saves the site's settings; visitors see them on their next request (like a publish).
     * `version` (settingsVersion of what the form showed) refuses a save made from settings
     * changed since: a ContentError 'conflict'. A save that changes nothing writes nothing
     * (no event, no new content version). Says whether anything changed.
     */
    async saveSiteSettings(
      settings: SiteSettingsInput,
      { editor = null, version }: { editor?: string | null; version?: string } = {},
    ): Promise<boolean> {
      const parsed = siteSettingsSchema.safeParse(settings);
      if (!parsed.success)
        throw new ContentError(
          'invalid',
          parsed.error.issues.map((issue) => issue.message).join(' '),
        );
      return write(async (q, changed) => {
        // Read inside the transaction, so a save between the read and the write cannot slip by.
        const current = settingsOf(await storedSettings(q));
        if (version !== undefined && version !== settingsVersion(current))
          throw new ContentError(
            'conflict',
            'Not saved: the settings were changed since you opened this form.',
          );
        // What the caller left out keeps its stored value.
        const next: SiteSettings = {
          ...parsed.data,
          language: parsed.data.language ?? current.language,
          accent: parsed.data.accent ?? current.accent,
          socialImage:
            parsed.data.socialImage === undefined ? current.socialImage : parsed.data.socialImage,
          favicon: parsed.data.favicon === undefined ? current.favicon : parsed.data.favicon,
          homeShows: parsed.data.homeShows ?? current.homeShows,
          navigation:
            parsed.data.navigation === undefined ? current.navigation : parsed.data.navigation,
          footerMenu: parsed.data.footerMenu ?? current.footerMenu,
        };
        for (const [chosen, was, card] of [
          [next.socialImage, current.socialImage, true],
          [next.favicon, current.favicon, false],
        ] as const) {
          if (chosen === null || chosen === was) continue;
          const [image] = await q<{ width: number | string; height: number | string }>`
            SELECT width, height FROM media WHERE hash = ${chosen}`;
          if (!image)
            throw new ContentError(
              'invalid',
              'That image is not in the media library (any more): choose another.',
            );
          // The default share image meets the same minimum as a page's (seo-fields.ts): a
          // smaller one is dropped by the platforms on every page that falls back to it.
          const small =
            card && socialImageProblem(Number(image.width), Number(image.height), 'none');
          if (small) throw new ContentError('invalid', small);
        }
        if (settingsVersion(current) === settingsVersion(next)) return false;
        const entries: [string, string | null][] = [
          ['site_title', next.title],
          ['site_tagline', next.tagline],
          ['site_footer', next.footer],
          [MENU_KEYS.header, next.navigation ? JSON.stringify(next.navigation) : null],
          [MENU_KEYS.footer, next.footerMenu.length > 0 ? JSON.stringify(next.footerMenu) : null],
          // Defaults are not stored: a site that never chose follows a changed default.
          ['site_language', next.language === DEFAULT_LANGUAGE ? null : next.language],
          ['site_accent', next.accent === DEFAULT_ACCENT ? null : next.accent],
          ['site_social_image', next.socialImage],
          ['site_favicon', next.favicon],
          ['site_home_shows', next.homeShows === 'posts' ? 'posts' : null],
        ];
        for (const [key, value] of entries) {
          if (value === null) await q`DELETE FROM settings WHERE key = ${key}`;
          else
            await q`INSERT INTO settings (key, value) VALUES (${key}, ${value})
                    ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
        }
        await recordEvent(q, {
          type: 'settings.changed',
          payload: next,
          editor,
          at: now().toISOString(),
        });
        await changed();
        return true;
      });
    },
  };
}
