// Owns how pages refer to uploaded images and how they are shown: `/media/<hash>/<variant>`
// addresses, finding them in Markdown, and the <picture> a page renders for one. No image
// processing here (that is media.ts, with sharp): the Markdown renderer needs only this.
import type { Query } from '../data/db';
import { escapeHtml } from '../observability/fallback-page';

export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'avif' | 'gif';

/** An image as pages and the library show it (no bytes). */
export type MediaItem = {
  id: number;
  hash: string;
  filename: string;
  alt: string;
  format: ImageFormat;
  width: number;
  height: number;
  bytes: number;
  createdAt: string;
  createdBy: string | null;
  /** The image's own address (its original format). */
  src: string;
  /** Variants by type, for `<picture>`: `[[url, width]…]` per content type. */
  variants: { name: string; contentType: string; width: number; height: number }[];
};

export type MediaRow = {
  id: number;
  hash: string;
  filename: string;
  alt: string;
  format: ImageFormat;
  width: number;
  height: number;
  bytes: number;
  created_at: string;
  created_by: string | null;
};

export type VariantRow = {
  media_id: number;
  name: string;
  content_type: string;
  width: number;
  height: number;
};

export function toItem(row: MediaRow, variants: VariantRow[]): MediaItem {
  const mine = variants.filter((variant) => Number(variant.media_id) === Number(row.id));
  const original = mine.find((variant) => variant.name.startsWith('original.'));
  return {
    id: Number(row.id),
    hash: row.hash,
    filename: row.filename,
    alt: row.alt,
    format: row.format,
    width: Number(row.width),
    height: Number(row.height),
    bytes: Number(row.bytes),
    createdAt: row.created_at,
    createdBy: row.created_by,
    src: mediaPath(row.hash, original?.name ?? 'original'),
    variants: mine.map((variant) => ({
      name: variant.name,
      contentType: variant.content_type,
      width: Number(variant.width),
      height: Number(variant.height),
    })),
  };
}

export function mediaPath(hash: string, name: string): string {
  return `/media/${hash}/${name}`;
}

/**
 * An uploaded image's address: `/media/<hash>` (the image, wherever its original is) or
 * `/media/<hash>/<variant>`. The one rule for routing, serving and finding them in pages.
 */
export const MEDIA_ADDRESS = /^\/media\/([0-9a-f]{32})(?:\/([\w.-]+))?$/;

/** `/media/<hash>` or `/media/<hash>/<variant>` → the hash; anything else → null. */
export function mediaHashOf(src: string): string | null {
  return MEDIA_ADDRESS.exec(src)?.[1] ?? null;
}

/** The image types Folio takes, for file pickers (the bytes decide on the server). */
export const IMAGE_ACCEPT = 'image/jpeg,image/png,image/webp,image/avif,image/gif';

/** The refusal of an image without alt text (said in the browser too, before sending). */
export const ALT_NEEDED_MESSAGE =
  'Describe the image in a few words (alt text), for people who cannot see it.';

/** The refusal for a file over the limit (also said in the browser, before sending). */
export function uploadTooLargeMessage(bytes: number, maxMb: number): string {
  const mb = Math.max(maxMb + 0.1, Math.ceil((bytes / 1024 / 1024) * 10) / 10);
  return `That file is ${mb.toFixed(1)} MB; images may be at most ${maxMb} MB. Make it smaller (a photo for the web rarely needs more than 2 MB) and upload it again.`;
}

/**
 * The Markdown that shows an image: its alt text with Markdown's own characters escaped, so
 * a `]`, `*` or a trailing backslash in it cannot end or change the image (hostile pass).
 */
export function imageMarkdown(hash: string, alt: string): string {
  const escaped = alt.replace(/\s+/g, ' ').replace(/[\\[\]*_`<>]/g, (ch) => `\\${ch}`);
  return `![${escaped}](/media/${hash})`;
}

/** Every media hash a Markdown body refers to. */
export function mediaHashesIn(markdown: string): string[] {
  return [
    ...new Set([...markdown.matchAll(/\/media\/([0-9a-f]{32})\b/g)].map((m) => m[1] as string)),
  ];
}

/** The images with these hashes (unknown ones are left out), from inside any query. */
export async function mediaByHashes(
  q: Query,
  hashes: readonly string[],
): Promise<Map<string, MediaItem>> {
  const found = new Map<string, MediaItem>();
  for (const hash of hashes) {
    const [row] = await q<MediaRow>`SELECT * FROM media WHERE hash = ${hash}`;
    if (row) found.set(hash, toItem(row, await variantsOf(q, [Number(row.id)])));
  }
  return found;
}

/** An address under `/media/` that a page's HTML points at, as the browser will ask for it. */
export type MediaAddress = {
  /** The path the browser requests (`/media/…`): what an editor is shown. */
  path: string;
  /** The image's hash when the path can name one (routing takes lowercase only), else null. */
  hash: string | null;
  /** The file under it (`480.avif`), or null for `/media/<hash>` itself. */
  name: string | null;
};

const TAG = /<[a-z][a-z\d-]*\s[^>]*>/gi;
const ATTRIBUTE_URL = /\s(src|href|srcset)="([^"]*)"/g;

function decodeAttribute(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|amp|quot|lt|gt|apos);/gi, (entity, code: string) => {
    const lower = code.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(Number.parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(Number(lower.slice(1)));
    return { amp: '&', quot: '"', lt: '<', gt: '>', apos: "'" }[lower] ?? entity;
  });
}

/**
 * Every `/media/` address a page's rendered HTML points at: images (`src`, each `srcset`
 * candidate) and links, on this site (a path) or any host (an absolute URL whose path is
 * `/media/<32 hex>…`). Read from the HTML, not the Markdown: the renderer decodes entities and
 * escapes (`/media/&#48;…` is `/media/0…` to a browser), and text in code is no address.
 */
export function mediaAddressesIn(html: string): MediaAddress[] {
  const found = new Map<string, MediaAddress>();
  // Attributes of tags only: a highlighted code sample's text may read ` src="/media/…"`.
  const urls = [...html.matchAll(TAG)].flatMap(([tag]) =>
    [...tag.matchAll(ATTRIBUTE_URL)].flatMap(([, attribute, raw = '']) => {
      const value = decodeAttribute(raw);
      // Only a srcset is a list; a comma in a src or href is part of the address.
      return attribute === 'srcset'
        ? value.split(',').map((candidate) => candidate.trim().split(/\s+/)[0] ?? '')
        : [value.trim()];
    }),
  );
  for (const url of urls) {
    let pathname: string;
    try {
      // As the browser will ask for it: percent-escapes stay (routing does not undo them).
      pathname = new URL(url, 'http://folio.invalid').pathname;
    } catch {
      continue;
    }
    if (!pathname.startsWith('/media/') || found.has(pathname)) continue;
    // Another host's /media/ is its own affair, unless it names a hash as ours do (an
    // absolute URL to this site, which no store here can tell from another).
    if (/^([a-z][a-z\d+.-]*:|\/\/)/i.test(url) && !/^\/media\/[0-9a-f]{32}(\/|$)/i.test(pathname))
      continue;
    const match = MEDIA_ADDRESS.exec(pathname);
    found.set(pathname, { path: pathname, hash: match?.[1] ?? null, name: match?.[2] ?? null });
  }
  return [...found.values()];
}

/** The hashes of the library's images a page's rendered HTML points at. */
export function mediaHashesInHtml(html: string): string[] {
  return [
    ...new Set(
      mediaAddressesIn(html).flatMap((address) => (address.hash === null ? [] : [address.hash])),
    ),
  ];
}

/**
 * The images a page uses, as kept beside its HTML (drafts.media_refs, revisions.media_refs: a
 * JSON list of hashes, sorted) for the library's `media_uses` (migration 11): those its
 * rendered HTML points at and its chosen social image (`seoImage`, issue 27's hostile pass: the
 * library called it unused and let it be deleted under a page's og:image). Written wherever
 * HTML is written, from this one rule.
 */
export function mediaRefsOf(html: string, seoImage: string | null = null): string {
  const hashes = new Set(mediaHashesInHtml(html));
  if (seoImage !== null) hashes.add(seoImage);
  return JSON.stringify([...hashes].sort());
}

/**
 * The `/media/` addresses in a page's rendered HTML that would not answer with an image: an
 * image deleted from the library, a hash typed by hand or misspelt (routing takes lowercase
 * hex only), a file the image does not have. Publishing such a page would show visitors a
 * broken image (or link). `seoImage`, the page's chosen social image, is checked too: a
 * missing one is a dead og:image on every share (issue 27's hostile pass).
 */
export async function missingMediaIn(
  q: Query,
  html: string,
  seoImage: string | null = null,
): Promise<string[]> {
  const addresses = mediaAddressesIn(html);
  const library = await mediaByHashes(q, [
    ...new Set(addresses.flatMap((address) => (address.hash === null ? [] : [address.hash]))),
    ...(seoImage === null ? [] : [seoImage]),
  ]);
  const social =
    seoImage !== null && !(library.has(seoImage) && hasOriginal(library.get(seoImage) as MediaItem))
      ? [`the social image /media/${seoImage}`]
      : [];
  const missing = addresses.flatMap((address) => {
    const item = address.hash === null ? undefined : library.get(address.hash);
    if (!item) return [address.hash === null ? address.path : `/media/${address.hash}`];
    const answers =
      address.name === null
        ? hasOriginal(item)
        : item.variants.some((variant) => variant.name === address.name);
    return answers ? [] : [address.path];
  });
  return [...new Set([...missing, ...social])];
}

/** The first few of a list and how many more: a page can name hundreds of addresses. */
export function firstFew(items: readonly string[], first = 5): string {
  return items.length > first
    ? `${items.slice(0, first).join(', ')} and ${items.length - first} more`
    : items.join(', ');
}

/**
 * Whether the image still has its original (a damaged or half-copied database may not):
 * `/media/<hash>` answers with it, or with nothing.
 */
export function hasOriginal(item: MediaItem): boolean {
  return item.variants.some((variant) => variant.name.startsWith('original.'));
}

/** Why a page naming `missing` images cannot be published (or scheduled), in an editor's words. */
export function missingMediaMessage(
  missing: readonly string[],
  refused: 'published' | 'scheduled' = 'published',
): string {
  const named = firstFew(missing);
  const then = refused === 'published' ? 'then publish' : 'then schedule it';
  return missing.length === 1
    ? `Not ${refused}: the page names an image that is not in the media library (${named}: deleted, misspelt or never uploaded). Take it out or upload the image again, ${then}.`
    : `Not ${refused}: the page names ${missing.length} images that are not in the media library (${named}: deleted, misspelt or never uploaded). Take them out or upload the images again, ${then}.`;
}

export async function variantsOf(q: Query, ids: number[]): Promise<VariantRow[]> {
  const rows: VariantRow[] = [];
  for (const id of ids)
    rows.push(
      ...(await q<VariantRow>`
        SELECT media_id, name, content_type, width, height FROM media_variants
        WHERE media_id = ${id} ORDER BY name`),
    );
  return rows;
}

/**
 * A page's <picture> for an uploaded image: AVIF and WebP at each width (the browser picks),
 * the original format as the fallback, with the size known so the page does not jump, and
 * lazy loading for all but the page's first image.
 */
export function pictureHtml(item: MediaItem, alt: string, { first }: { first: boolean }): string {
  const loading = first ? ' fetchpriority="high"' : ' loading="lazy"';
  return `<picture>${sourcesHtml(item)}<img src="${item.src}" alt="${escapeHtml(alt || item.alt)}" width="${item.width}" height="${item.height}"${loading} decoding="async"></picture>`;
}

/**
 * The <source> elements of an image's <picture>: one candidate a width per type. An AVIF or
 * WebP upload's original is left out: its width is its own-width copy's, listed twice before
 * (hostile pass).
 */
function sourcesHtml(item: MediaItem): string {
  return (['image/avif', 'image/webp'] as const)
    .map((type) => {
      const set = item.variants
        .filter((variant) => variant.contentType === type && !variant.name.startsWith('original.'))
        .sort((a, b) => a.width - b.width)
        .filter((variant, index, sorted) => sorted[index - 1]?.width !== variant.width)
        .map((variant) => `${mediaPath(item.hash, variant.name)} ${variant.width}w`)
        .join(', ');
      return set ? `<source type="${type}" srcset="${set}" sizes="${SIZES}">` : '';
    })
    .join('');
}

/**
 * Stored page HTML with each uploaded image's <source> elements made anew from what the
 * store now has (`folio media refresh`, after sizes were added). Nothing else is rendered
 * again: the text, its highlighted code, each image's alt text and loading stay as they were.
 */
export function refreshPictureSources(html: string, media: ReadonlyMap<string, MediaItem>): string {
  return html.replace(
    /<picture>(?:<source [^>]*>)*(<img src="\/media\/([0-9a-f]{32})\/[^"]*")/g,
    (whole, img: string, hash: string) => {
      const item = media.get(hash);
      return item ? `<picture>${sourcesHtml(item)}${img}` : whole;
    },
  );
}

/** The reading column is at most 46rem (736 px) wide, less the page's padding on a phone. */
const SIZES = '(max-width: 46rem) calc(100vw - 2.5rem), 736px';
