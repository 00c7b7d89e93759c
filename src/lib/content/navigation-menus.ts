// Owns the site's two menus as data (issue 27): the header's and the footer's entries, each a
// published page (its label its title unless the editors gave it one) or an external link
// (a label and an http(s) or mailto address), in the editors' order. How they are stored (a
// JSON list per settings key, decision 0037), read back (forgiving: a bad entry is dropped, not
// a broken site) and checked on save (strict: refused in words). Browser-safe: the menus form
// imports the limits and the link check, so nothing here may import server-only modules.
import { z } from 'zod';
import { cleanLine } from './clean-text';
import { MENU_LABEL_MAX, MENU_URL_MAX } from './field-limits';
import { checkWebAddress, noSlashesMessage } from './web-address';

/** The most entries the header shows: the form refuses more, and a render reads no more. */
export const NAVIGATION_MAX = 20;
/** The most entries the footer's menu shows. */
export const FOOTER_MENU_MAX = 20;

/** A page of the site (`label` absent: its title), or a link elsewhere. */
export type MenuEntry =
  | { page: number; label?: string; url?: undefined }
  | { url: string; label: string; page?: undefined };

export type MenuName = 'header' | 'footer';

/** Where each menu is kept (settings keys); the header's is the one issue 25 stored ids in. */
export const MENU_KEYS: Readonly<Record<MenuName, string>> = {
  header: 'site_navigation',
  footer: 'site_footer_menu',
};

export const MENU_MAX: Readonly<Record<MenuName, number>> = {
  header: NAVIGATION_MAX,
  footer: FOOTER_MENU_MAX,
};

const SCHEMES = new Set(['http:', 'https:', 'mailto:']);

/**
 * Why an external link's address cannot be saved, in words, or null when it can: an absolute
 * http(s) address with a host, or mailto: with an address. javascript:, data: and the like
 * would run or carry content in the visitor's browser; a relative address would mean another
 * thing on every page it is shown on (a page of this site is chosen as a page instead).
 */
export function linkProblem(url: string): string | null {
  if (url === '') return 'Give the link an address, such as https://example.com/.';
  if ([...url].length > MENU_URL_MAX)
    return `Use an address of at most ${MENU_URL_MAX} characters.`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `“${shorten(url)}” is not a whole address: start it with https://, http:// or mailto: (for a page of this site, add the page instead).`;
  }
  if (!SCHEMES.has(parsed.protocol))
    return `Links may go to http://, https:// or mailto: addresses only, not ${parsed.protocol}`;
  if (parsed.protocol === 'mailto:') {
    if (!/^[^@\s]+@[^@\s]+$/.test(decodeURIComponent(parsed.pathname)))
      return `“${shorten(url)}” names no e-mail address: write it as mailto:name@example.com.`;
    return null;
  }
  // Another site's page: the one rule for those (web-address.ts).
  const checked = checkWebAddress(url);
  if (checked.ok) return null;
  if (checked.problem === 'no-slashes') return noSlashesMessage(url);
  if (checked.problem === 'credentials')
    return `“${shorten(url)}” carries a user name or password: leave them out of a link.`;
  return `“${shorten(url)}” is not a whole address: write it as https://example.com/page.`;
}

const shorten = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}…` : text);

/** A label as typed, cleaned as a title is (no NUL, no invisible characters), trimmed. */
const label = z
  .string()
  .transform(cleanLine)
  .pipe(
    z.string().trim().max(MENU_LABEL_MAX, `Use labels of at most ${MENU_LABEL_MAX} characters.`),
  );

const pageEntry = z.object({
  page: z.number().int().positive(),
  label: label.optional(),
});

const linkEntry = z.object({
  url: z
    .string()
    .trim()
    .superRefine((url, context) => {
      const problem = linkProblem(url);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    }),
  label: label.pipe(z.string().min(1, 'Give each link a label.')),
});

const idEntry = z.number().int().positive();

/**
 * One entry as a save takes it: a bare page id is that page under its title (what issue 25's
 * callers and stored lists hold). An empty label on a page means its title. Picked by its
 * shape rather than tried against each (a union), so a refusal is the entry's own words.
 */
export const menuEntrySchema = z.unknown().transform((value, context): MenuEntry => {
  const refuse = (issues: readonly { message: string }[]) => {
    for (const issue of issues) context.addIssue({ code: 'custom', message: issue.message });
    return z.NEVER;
  };
  if (typeof value === 'number') {
    const page = idEntry.safeParse(value);
    return page.success ? { page: page.data } : refuse(page.error.issues);
  }
  if (typeof value === 'object' && value !== null && 'url' in value) {
    const link = linkEntry.safeParse(value);
    return link.success
      ? { url: link.data.url, label: link.data.label }
      : refuse(link.error.issues);
  }
  const entry = pageEntry.safeParse(value);
  if (!entry.success) return refuse(entry.error.issues);
  return entry.data.label
    ? { page: entry.data.page, label: entry.data.label }
    : { page: entry.data.page };
});

/** A whole menu as a save takes it: at most `max` entries, each page once. */
export const menuSchema = (max: number, name: string) =>
  z
    .array(menuEntrySchema)
    .max(max, `The ${name} holds ${max} entries at most.`)
    .refine((entries) => {
      const pages = entries.flatMap((entry) => (entry.page === undefined ? [] : [entry.page]));
      return new Set(pages).size === pages.length;
    }, `A page is in the ${name} once at most.`);

/**
 * A stored menu, or null for none. Forgiving, as a read must be: a list of page ids (as issue
 * 25 stored the header's, before migration 20) reads as those pages; an entry that is neither
 * a page nor a safe link is left out rather than breaking every page of the site.
 */
export function parseMenu(value: string | undefined): MenuEntry[] | null {
  if (value === undefined) return null;
  let stored: unknown;
  try {
    stored = JSON.parse(value);
  } catch {
    return null;
  }
  if (!Array.isArray(stored)) return null;
  return stored.flatMap((item) => {
    const entry = menuEntrySchema.safeParse(item);
    return entry.success ? [entry.data] : [];
  });
}

/** The pages a menu names, in its order. */
export function menuPageIds(entries: readonly MenuEntry[] | null): number[] {
  return (entries ?? []).flatMap((entry) => (entry.page === undefined ? [] : [entry.page]));
}
