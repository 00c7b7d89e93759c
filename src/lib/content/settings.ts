// Owns the site's own settings (title, tagline, footer, header navigation): their schema,
// reading them with defaults, and saving them in one transaction that visitors see on their
// next request, like a publish.
import 'server-only';
import { z } from 'zod';
import { ContentError } from './errors';
import { recordEvent } from './events';
import { FOOTER_MAX, SITE_TITLE_MAX, TAGLINE_MAX } from './field-limits';
import type { StoreContext } from './store-context';
import type { SiteSettings } from './types';

/** The stored navigation (a JSON list of page ids), or null for "every published page". */
function parseNavigation(value: string | undefined): readonly number[] | null {
  if (value === undefined) return null;
  try {
    const ids: unknown = JSON.parse(value);
    return Array.isArray(ids) ? ids.filter((id): id is number => Number.isSafeInteger(id)) : null;
  } catch {
    return null;
  }
}

export const siteSettingsSchema = z.object({
  title: z
    .string()
    .trim()
    .min(1, 'Enter the site title.')
    .max(SITE_TITLE_MAX, `Use at most ${SITE_TITLE_MAX} characters.`),
  tagline: z.string().trim().max(TAGLINE_MAX, `Use at most ${TAGLINE_MAX} characters.`),
  footer: z.string().trim().max(FOOTER_MAX, `Use at most ${FOOTER_MAX} characters.`),
  navigation: z.array(z.number().int().positive()).max(20, 'Twenty links at most.').nullable(),
});

export function siteSettings({ read, write, now }: StoreContext) {
  return {
    /** The site's title, tagline, footer and header navigation. */
    async getSiteSettings(): Promise<SiteSettings> {
      const rows = await read(
        (q) => q<{ key: string; value: string }>`
          SELECT key, value FROM settings
          WHERE key IN ('site_title', 'site_tagline', 'site_footer', 'site_navigation')`,
      );
      const value = (key: string) => rows.find((row) => row.key === key)?.value;
      return {
        title: value('site_title') ?? 'Folio',
        tagline: value('site_tagline') ?? '',
        footer: value('site_footer') ?? '',
        navigation: parseNavigation(value('site_navigation')),
      };
    },

    /** Saves the site's settings; visitors see them on their next request (like a publish). */
    async saveSiteSettings(
      settings: SiteSettings,
      { editor = null }: { editor?: string | null } = {},
    ): Promise<void> {
      const parsed = siteSettingsSchema.safeParse(settings);
      if (!parsed.success)
        throw new ContentError(
          'invalid',
          parsed.error.issues.map((issue) => issue.message).join(' '),
        );
      await write(async (q, changed) => {
        const entries: [string, string | null][] = [
          ['site_title', parsed.data.title],
          ['site_tagline', parsed.data.tagline],
          ['site_footer', parsed.data.footer],
          [
            'site_navigation',
            parsed.data.navigation ? JSON.stringify(parsed.data.navigation) : null,
          ],
        ];
        for (const [key, value] of entries) {
          if (value === null) await q`DELETE FROM settings WHERE key = ${key}`;
          else
            await q`INSERT INTO settings (key, value) VALUES (${key}, ${value})
                    ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
        }
        await recordEvent(q, {
          type: 'settings.changed',
          payload: parsed.data,
          editor,
          at: now().toISOString(),
        });
        await changed();
      });
    },
  };
}
