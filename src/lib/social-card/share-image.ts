// Owns which image stands for a page where it is shared (og:image, twitter:card, JSON-LD): the
// first library image its published HTML shows, else the site's default social image, else
// its generated card (issue 27). Read from the HTML already stored, which names each image's
// address, size and alt text: no query per page view.
import 'server-only';
import type { MediaItem } from '../media/media-refs';
import { mediaPath } from '../media/media-refs';
import { CARD_HEIGHT, CARD_WIDTH } from './card-image';

export type ShareImage = {
  /** `/media/…`: made absolute by the caller where SITE_URL allows. */
  path: string;
  width: number;
  height: number;
  alt: string;
  /** Drawn by Folio from the page's title, rather than an image of the page's own. */
  generated: boolean;
};

// pictureHtml (media-refs.ts) writes each uploaded image as a <picture> of <source>s then an
// <img> with src, alt, width and height in this order.
const PICTURE =
  /<picture>((?:<source [^>]*>)*)<img src="(\/media\/[0-9a-f]{32}\/[\w.-]+)" alt="([^"]*)" width="(\d+)" height="(\d+)"/;
const WEBP_SET = /<source type="image\/webp" srcset="([^"]*)"/;

/** The alt attribute as text (escapeHtml's entities, and numeric ones). */
function attributeText(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|amp|quot|lt|gt|apos);/gi, (entity, code: string) => {
    const lower = code.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(Number.parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(Number(lower.slice(1)));
    return { amp: '&', quot: '"', lt: '<', gt: '>', apos: "'" }[lower] ?? entity;
  });
}

/**
 * The first uploaded image a page's HTML shows. Share previews read JPEG, PNG, GIF and WebP,
 * not AVIF: an AVIF upload stands as its widest WebP copy.
 */
export function firstImageIn(html: string): ShareImage | null {
  const match = PICTURE.exec(html);
  if (!match) return null;
  const [, sources = '', src = '', alt = '', width = '0', height = '0'] = match;
  const image = {
    path: src,
    width: Number(width),
    height: Number(height),
    alt: attributeText(alt),
    generated: false,
  };
  if (!src.endsWith('.avif')) return image;
  const widest = (WEBP_SET.exec(sources)?.[1] ?? '')
    .split(',')
    .map((candidate) => candidate.trim().split(/\s+/))
    .map(([path = '', w = '']) => ({ path, width: Number.parseInt(w, 10) }))
    .filter((candidate) => candidate.path && Number.isFinite(candidate.width))
    .sort((a, b) => b.width - a.width)[0];
  if (!widest) return null;
  return {
    ...image,
    path: widest.path,
    width: widest.width,
    height: Math.round((image.height * widest.width) / image.width),
  };
}

/**
 * The first uploaded image a page's HTML shows, as a listing's thumbnail: its narrowest WebP
 * copy (the smallest made is 480 px, for a 7rem box), never the original (hostile pass: a
 * listing of twenty posts loaded twenty full-size photographs).
 */
export function thumbnailIn(html: string): ShareImage | null {
  const image = firstImageIn(html);
  const match = image ? PICTURE.exec(html) : null;
  if (!image || !match) return image;
  const [, sources = '', , , width = '0', height = '0'] = match;
  const narrowest = (WEBP_SET.exec(sources)?.[1] ?? '')
    .split(',')
    .map((candidate) => candidate.trim().split(/\s+/))
    .map(([path = '', w = '']) => ({ path, width: Number.parseInt(w, 10) }))
    .filter((candidate) => candidate.path && Number.isFinite(candidate.width))
    .sort((a, b) => a.width - b.width)[0];
  if (!narrowest) return image;
  return {
    ...image,
    path: narrowest.path,
    width: narrowest.width,
    height: Math.round((Number(height) * narrowest.width) / Number(width)),
  };
}

/** A library image as a share image (the site's default): its original, or its widest WebP. */
export function libraryImage(item: MediaItem): ShareImage | null {
  const shareable = item.variants
    .filter(
      (variant) =>
        (variant.name.startsWith('original.') && variant.contentType !== 'image/avif') ||
        variant.contentType === 'image/webp',
    )
    .sort(
      (a, b) =>
        Number(b.name.startsWith('original.')) - Number(a.name.startsWith('original.')) ||
        b.width - a.width,
    )[0];
  if (!shareable) return null;
  return {
    path: mediaPath(item.hash, shareable.name),
    width: shareable.width,
    height: shareable.height,
    alt: item.alt,
    generated: false,
  };
}

/** The generated card at `path` (card-address.ts). */
export function cardImage(path: string, title: string): ShareImage {
  return { path, width: CARD_WIDTH, height: CARD_HEIGHT, alt: title, generated: true };
}
