// Owns the rules for a page's search and sharing fields (issue 27): its meta title and
// description, its social image, a canonical address of its own, and "hide from search
// engines" — their limits, what a canonical address may be, how small a social image may be,
// how they are stored (one JSON text on drafts and revisions, decision 0036) and how a search
// result cuts them. Shared by the store, the editor's form and its previews, and the public
// page's <head>. Browser-safe: nothing here may import server-only modules.
import { z } from 'zod';
import { cleanLine, lineText, summaryText } from './clean-text';
import { checkWebAddress, noSlashesMessage } from './web-address';

/** Search results show about this many characters of a title (advice, not a limit). */
export const META_TITLE_ADVICE = 70;
export const META_TITLE_MAX = 200;
/** …and about this many of a description. */
export const META_DESCRIPTION_ADVICE = 160;
export const META_DESCRIPTION_MAX = 300;
/** An address: far past any real one, short enough to keep a refused form small. */
export const CANONICAL_MAX = 2_000;

/**
 * The smallest image a share card takes: Facebook's and LinkedIn's documented minimum
 * (200 × 200 px). Below it the platforms drop the image or show none, so a chosen one is refused
 * and an automatic one is skipped.
 */
export const SOCIAL_IMAGE_MIN = { width: 200, height: 200 } as const;
/** The size the platforms advise for a large card (1.91:1): below it, a warning only. */
export const SOCIAL_IMAGE_ADVICE = { width: 1200, height: 630 } as const;

/** The fields as stored and read. `image` is a library image's hash, or null: automatic. */
export type SeoFields = {
  title: string;
  description: string;
  image: string | null;
  canonical: string;
  noindex: boolean;
};

export const EMPTY_SEO: SeoFields = {
  title: '',
  description: '',
  image: null,
  canonical: '',
  noindex: false,
};

const HASH = /^[0-9a-f]{32}$/;

/**
 * Why `value` cannot be a page's canonical address, or null when it can: empty (the page's
 * own address), an absolute http(s) URL, or a path on this site. `javascript:`, `data:`, a
 * protocol-relative `//host`, spaces and control characters are refused: the value is written
 * into every copy of the page's <head>.
 */
export function canonicalProblem(value: string): string | null {
  if (value === '') return null;
  if (value.length > CANONICAL_MAX) return `Use at most ${CANONICAL_MAX} characters.`;
  if (/[\s\\<>"]/.test(value) || [...value].some((c) => c.charCodeAt(0) < 32))
    return 'An address has no spaces, quotes, angle brackets or backslashes.';
  if (value.startsWith('/')) {
    if (value.startsWith('//'))
      return 'Start with https:// for another site, or with a single / for a page of this site.';
    return null;
  }
  // Another site's address: the one rule for those (web-address.ts), in this field's words.
  const checked = checkWebAddress(value);
  if (checked.ok) return null;
  switch (checked.problem) {
    case 'scheme':
      return `A canonical address is a web page: “${new URL(value).protocol}” addresses are not allowed. Start with https:// or /.`;
    case 'no-slashes':
      return noSlashesMessage(value);
    case 'credentials':
      return 'A canonical address carries no user name or password.';
    case 'characters':
      return 'An address has no spaces, quotes, angle brackets or backslashes.';
    default:
      return 'Enter a full address starting with https:// (or http://), or a path of this site starting with /.';
  }
}

/**
 * A chosen social image's size refused in words, or null when a card takes it. The one minimum
 * for a page's image and the site's default (Site settings, hostile pass of issue 27); `instead`
 * says what else the editor may choose there.
 */
export function socialImageProblem(
  width: number,
  height: number,
  instead = 'leave it to the first image of the page',
): string | null {
  if (width >= SOCIAL_IMAGE_MIN.width && height >= SOCIAL_IMAGE_MIN.height) return null;
  return `This image is ${width} × ${height} px: share cards need at least ${SOCIAL_IMAGE_MIN.width} × ${SOCIAL_IMAGE_MIN.height} px (${SOCIAL_IMAGE_ADVICE.width} × ${SOCIAL_IMAGE_ADVICE.height} is best). Choose a larger image, or ${instead}.`;
}

/** Advice (not a refusal) for an image a card takes but shows small, or null. */
export function socialImageAdvice(width: number, height: number): string | null {
  if (width >= SOCIAL_IMAGE_ADVICE.width && height >= SOCIAL_IMAGE_ADVICE.height) return null;
  if (socialImageProblem(width, height)) return null;
  return `${width} × ${height} px: shown as a small card on some networks; ${SOCIAL_IMAGE_ADVICE.width} × ${SOCIAL_IMAGE_ADVICE.height} px shows large everywhere.`;
}

/** Whether an image is large enough to be a page's automatic share image. */
export function usableForCard(width: number, height: number): boolean {
  return socialImageProblem(width, height) === null;
}

/** The fields as the editor's form sends them (names `seoTitle`…); a checkbox is 'on' or absent. */
export const seoFieldsSchema = z.object({
  title: lineText()
    .pipe(z.string().trim())
    .pipe(z.string().max(META_TITLE_MAX, `Use at most ${META_TITLE_MAX} characters.`)),
  description: summaryText().pipe(
    z.string().trim().max(META_DESCRIPTION_MAX, `Use at most ${META_DESCRIPTION_MAX} characters.`),
  ),
  image: z
    .string()
    .transform((value) => value.trim())
    .refine(
      (value) => value === '' || HASH.test(value),
      'Choose an image from the library, or the first image of the page.',
    )
    .transform((value) => (value === '' ? null : value)),
  canonical: lineText()
    .pipe(z.string().trim())
    .superRefine((value, ctx) => {
      const problem = canonicalProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  noindex: z.boolean(),
});

/**
 * The stored text of `fields`: its keys always in one order, so equal fields are equal text
 * (a save that changes nothing is seen as one, in SQL, by comparing the column).
 */
export function formatSeo(fields: SeoFields): string {
  const { title, description, image, canonical, noindex } = fields;
  if (!title && !description && image === null && !canonical && !noindex) return '{}';
  return JSON.stringify({ title, description, image, canonical, noindex });
}

/**
 * The fields a stored text holds. Anything unreadable (a hand-edited row) reads as no
 * choices rather than failing the page: each field is taken only when it is of its kind.
 */
export function parseSeo(text: string | null | undefined): SeoFields {
  if (!text || text === '{}') return EMPTY_SEO;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return EMPTY_SEO;
  }
  if (typeof raw !== 'object' || raw === null) return EMPTY_SEO;
  const value = raw as Record<string, unknown>;
  const text_ = (key: string) => (typeof value[key] === 'string' ? (value[key] as string) : '');
  const image = text_('image');
  const canonical = text_('canonical');
  return {
    title: cleanLine(text_('title')).slice(0, META_TITLE_MAX),
    description: text_('description').slice(0, META_DESCRIPTION_MAX),
    image: HASH.test(image) ? image : null,
    canonical: canonicalProblem(canonical) === null ? canonical : '',
    noindex: value.noindex === true,
  };
}

/**
 * `text` cut as a search result cuts it: whole words up to `max` characters, then "…".
 * (Engines cut by pixel width; characters are the documented approximation.)
 */
export function snippet(text: string, max: number): string {
  const chars = [...text.trim()];
  if (chars.length <= max) return chars.join('');
  const cut = chars.slice(0, max - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
