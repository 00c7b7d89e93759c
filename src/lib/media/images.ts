// Owns what may be uploaded and what is made of it: the type decided from the bytes (never the
// name or the browser's word), the checks on size and damage, the variants made once with sharp
// (AVIF and WebP at the widths pages offer, from one decode, one upload at a time), and the alt text and file
// name as kept. No database here: media.ts keeps what this makes.
import 'server-only';
import { createHash } from 'node:crypto';
import type { Metadata, Sharp, SharpOptions } from 'sharp';
import { cleanLine } from '../content/clean-text';
import { ContentError } from '../content/errors';
import { ALT_NEEDED_MESSAGE, type ImageFormat } from './media-refs';

/**
 * Widths made for `srcset` (never wider than the original). 720 is a phone's: the reading
 * column on a 360–412 px screen at 1.75–2 device pixels per px needs 560–744 px, which 960
 * overshot by nearly twice the bytes (bench: a phone's first view of three photographs). Images
 * stored before a width was added get it from `folio media refresh` (a re-upload finds the
 * image already kept: same bytes, same id).
 */
export const MEDIA_WIDTHS = [480, 720, 960, 1600] as const;
/** The formats each width is made in; the original's own format is the fallback. */
export const SIZED_TYPES = ['avif', 'webp'] as const;

/**
 * The widths an image `width` px wide is made at, each named by its step of MEDIA_WIDTHS: every
 * step narrower than the image, then one at the image's own width (named by the next step), so
 * a 600 px upload is offered at 480 and 600, not 480 alone, which a 2× phone would show
 * soft (hostile pass).
 */
export function variantTargets(width: number): { name: number; width: number }[] {
  const targets: { name: number; width: number }[] = [];
  for (const step of MEDIA_WIDTHS) {
    targets.push({ name: step, width: Math.min(step, width) });
    if (step >= width) break;
  }
  return targets;
}

/**
 * The largest image accepted, in pixels (every frame of an animation counted): more is a
 * decompression bomb, not a photograph.
 */
export const MAX_IMAGE_PIXELS = 40_000_000;
/**
 * The largest AVIF accepted, in pixels. AVIF has no shrink-on-load and its decoder is the slow
 * part of an upload (36 million pixels: 1.7 s of a busy 2-core machine for one decode, where a
 * JPEG of that size reads at a fraction of it); 24 million still takes a 6000 × 4000 camera
 * export (fourth hostile review: an 879-byte 6000 × 6000 AVIF held the upload queue).
 */
export const MAX_AVIF_PIXELS = 24_000_000;
/** The longest side kept of an original (phone photos are 4000–8000 px; pages need less). */
const LONGEST_KEPT_SIDE = 2400;
/** Changes here change every image's URL, so an immutable URL never serves new bytes. */
const PIPELINE_VERSION = 'v1';

export const FORMATS = {
  jpeg: { contentType: 'image/jpeg', extension: 'jpg' },
  png: { contentType: 'image/png', extension: 'png' },
  webp: { contentType: 'image/webp', extension: 'webp' },
  avif: { contentType: 'image/avif', extension: 'avif' },
  gif: { contentType: 'image/gif', extension: 'gif' },
} as const;

export const ACCEPTED_TYPES_TEXT = 'JPEG, PNG, WebP, AVIF or GIF';

export type Variant = {
  /** `960.avif`, `original.jpg`…: the last part of the image's URL. */
  name: string;
  contentType: string;
  width: number;
  height: number;
  data: Uint8Array;
};

export type ProcessedImage = {
  hash: string;
  format: ImageFormat;
  width: number;
  height: number;
  variants: Variant[];
};

export const refuse = (message: string) => new ContentError('invalid', message);

/**
 * sharp, loaded at the first upload: libvips and its codecs are tens of MB a server that
 * only serves pages never needs in memory.
 */
async function image(input: Uint8Array, options: SharpOptions): Promise<Sharp> {
  const { default: sharp } = await import('sharp');
  // libvips' operation cache keeps decoded images for reuse; uploads never repeat, and the
  // cache held hundreds of MB after a burst of them (hostile pass).
  sharp.cache(false);
  return sharp(input, options);
}

/**
 * Uploads are processed one at a time: each uses every core while it runs, and twenty at once
 * held every page request for seconds (hostile pass). The others wait their turn.
 */
let queue: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const turn = queue.then(work, work);
  queue = turn.catch(() => undefined);
  return turn;
}

/** The format the bytes say they are, or why they are refused. */
async function formatOf(bytes: Uint8Array): Promise<{
  format: ImageFormat;
  width: number;
  height: number;
  pages: number;
}> {
  // SVG is text, and a script inside it is not always one sharp would notice: look first.
  const head = new TextDecoder()
    .decode(bytes.subarray(0, 512))
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (/^(<\?xml|<!doctype svg|<svg)/i.test(head) || /<svg[\s>]/i.test(head))
    throw refuse(
      `SVG files are not accepted: they can carry scripts. Upload a ${ACCEPTED_TYPES_TEXT}, or export the drawing as PNG.`,
    );
  let meta: Metadata;
  try {
    meta = await (await image(bytes, { limitInputPixels: false })).metadata();
  } catch {
    throw refuse(`That file is not an image Folio can use: upload a ${ACCEPTED_TYPES_TEXT}.`);
  }
  if (meta.format === 'svg')
    throw refuse(
      `SVG files are not accepted: they can carry scripts. Upload a ${ACCEPTED_TYPES_TEXT}, or export the drawing as PNG.`,
    );
  const format: ImageFormat | null =
    meta.format === 'jpeg' ||
    meta.format === 'png' ||
    meta.format === 'webp' ||
    meta.format === 'gif'
      ? meta.format
      : meta.format === 'heif' && meta.compression === 'av1'
        ? 'avif'
        : null;
  if (!format)
    throw refuse(`That file is not an image Folio can use: upload a ${ACCEPTED_TYPES_TEXT}.`);
  const width = meta.width ?? 0;
  const height = meta.pageHeight ?? meta.height ?? 0;
  const pages = meta.pages ?? 1;
  if (width < 1 || height < 1) throw refuse('That image has no size Folio can read.');
  const problem = sizeProblem(format, width, height, pages);
  if (problem) throw refuse(problem);
  return { format, width, height, pages };
}

/** The most pixels an image of `format` may have, every frame counted. */
const pixelLimit = (format: ImageFormat) =>
  format === 'avif' ? MAX_AVIF_PIXELS : MAX_IMAGE_PIXELS;

const millions = (pixels: number) => `${pixels / 1_000_000} million`;

/**
 * Why an image this size is refused, or null: judged from its header, before a pixel is
 * decoded. A too-long animation is "too large" too: sharp's own pixel limit counts every frame,
 * and its error read as "damaged" (fourth hostile review).
 */
export function sizeProblem(
  format: ImageFormat,
  width: number,
  height: number,
  pages: number,
): string | null {
  const limit = pixelLimit(format);
  if (width * height > limit)
    return format === 'avif'
      ? `That AVIF image is too large: ${width} × ${height} pixels; Folio takes AVIF images of at most ${millions(limit)} pixels (they are slow to read). Make it smaller, or save it as JPEG or PNG, and upload it again.`
      : `That image is too large: ${width} × ${height} pixels; Folio takes at most ${millions(limit)} pixels. Make it smaller and upload it again.`;
  if (width * height * pages > limit)
    return `That animation is too large: ${pages} frames of ${width} × ${height} pixels; Folio takes at most ${millions(limit)} pixels in all its frames together. Make it shorter or smaller and upload it again.`;
  return null;
}

/** An image's pixels, decoded once; every copy of it is made from these. */
export type Pixels = { data: Uint8Array; width: number; height: number; channels: 1 | 2 | 3 | 4 };

/**
 * The one place an image is decoded for its copies: turned the way its EXIF says and shrunk to
 * the longest side kept, as raw pixels. Each copy used to decode the upload again: nine decodes
 * of one AVIF, 120 s (fourth hostile review). An object, so a test can count its calls.
 */
export const decoder = {
  async decode(bytes: Uint8Array, limitInputPixels: number): Promise<Pixels> {
    // failOn 'truncated': a cut-off upload is refused, not stored half grey.
    const { data, info } = await (await image(bytes, { failOn: 'truncated', limitInputPixels }))
      .rotate()
      .resize({
        width: LONGEST_KEPT_SIDE,
        height: LONGEST_KEPT_SIDE,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, channels: info.channels };
  },
};

/** A pipeline over decoded pixels: nothing is decoded again. */
const fromPixels = (pixels: Pixels) =>
  image(pixels.data, {
    raw: { width: pixels.width, height: pixels.height, channels: pixels.channels },
  });

/**
 * Checks an upload and makes its variants: the bytes decide the type; SVG, other files,
 * truncated or damaged images and decompression bombs are refused (ContentError 'invalid');
 * metadata (EXIF, GPS, XMP) is dropped, after turning the image the way its EXIF says.
 */
export function processImage(bytes: Uint8Array): Promise<ProcessedImage> {
  return oneAtATime(() => processNow(bytes));
}

async function processNow(bytes: Uint8Array): Promise<ProcessedImage> {
  const { format, pages } = await formatOf(bytes);
  const animated = format === 'gif' || pages > 1;
  const hash = createHash('sha256')
    .update(PIPELINE_VERSION)
    .update(bytes)
    .digest('hex')
    .slice(0, 32);
  const variants: Variant[] = [];
  try {
    if (animated) {
      // An animation is kept as one file, made in one pass (decoded once): no sized copies.
      const source = (
        await image(bytes, {
          failOn: 'truncated',
          limitInputPixels: pixelLimit(format),
          animated,
        })
      ).rotate();
      const kept = await encode(
        source.resize({
          width: LONGEST_KEPT_SIDE,
          height: LONGEST_KEPT_SIDE,
          fit: 'inside',
          withoutEnlargement: true,
        }),
        format,
      );
      variants.push({ name: `original.${FORMATS[format].extension}`, ...kept });
    } else {
      const pixels = await decoder.decode(bytes, pixelLimit(format));
      const kept = await encode(await fromPixels(pixels), format);
      variants.push({ name: `original.${FORMATS[format].extension}`, ...kept });
      for (const target of variantTargets(kept.width))
        for (const type of SIZED_TYPES)
          variants.push({
            name: `${target.name}.${type}`,
            ...(await encode(variantOf(await fromPixels(pixels), target.width), type)),
          });
    }
  } catch (error) {
    if (error instanceof ContentError) throw error;
    throw refuse('That image is damaged or cut short: upload the whole file again.');
  }
  const original = variants[0] as Variant;
  return { hash, format, width: original.width, height: original.height, variants };
}

/**
 * An image at a variant's width, never taller than an original is kept: a 1 × 4000 px strip's
 * copies were 4000 px tall beside its 2400 px original (hostile pass).
 */
function variantOf(source: Sharp, width: number): Sharp {
  return source.resize({
    width,
    height: LONGEST_KEPT_SIDE,
    fit: 'inside',
    withoutEnlargement: true,
  });
}

async function encode(image: Sharp, format: ImageFormat) {
  const encoded =
    format === 'jpeg'
      ? image.jpeg({ quality: 82, mozjpeg: true })
      : format === 'png'
        ? image.png({ compressionLevel: 9 })
        : format === 'webp'
          ? image.webp({ quality: 78 })
          : format === 'avif'
            ? image.avif({ quality: 55, effort: 2 })
            : image.gif();
  const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
  return {
    contentType: FORMATS[format].contentType,
    width: info.width,
    height: info.pageHeight ?? info.height,
    data: new Uint8Array(data),
  };
}

/** Alt text: required, one line, at most this long. */
export const ALT_MAX = 300;

/**
 * Alt text as kept: one line (runs of white space, line breaks included, are one space), no
 * control or direction-override characters (PostgreSQL refuses NUL; an override can make a
 * name read backwards).
 */
export function normaliseAlt(alt: string): string {
  // One line, cleaned as a page's title is (clean-text.ts: controls, bidi overrides, zero-width).
  return cleanLine(alt).replace(/\s+/g, ' ').trim();
}

export function altProblem(alt: string): string | null {
  if (normaliseAlt(alt) === '') return ALT_NEEDED_MESSAGE;
  if ([...alt].length > ALT_MAX) return `Keep the description to ${ALT_MAX} characters at most.`;
  return null;
}

/** A file name fit to show (never used to serve: URLs use the hash). */
export function displayName(name: string | undefined): string {
  const base = cleanLine(String(name ?? ''))
    .replace(/^.*[\\/]/, '')
    .replace(/\s+/g, ' ');
  return [...base].slice(0, 120).join('').trim() || 'image';
}

/**
 * Encodes the sizes `targets` of an image from its original's bytes (`folio media refresh`:
 * widths added since it was uploaded), one upload or refresh at a time. Throws when the
 * original cannot be read.
 */
export function encodeSizes(
  bytes: Uint8Array,
  targets: readonly { name: number; width: number; type: (typeof SIZED_TYPES)[number] }[],
): Promise<Variant[]> {
  return oneAtATime(async () => {
    // A kept original is at most LONGEST_KEPT_SIDE square, already turned: decoded once.
    const pixels = await decoder.decode(bytes, MAX_IMAGE_PIXELS);
    const encoded: Variant[] = [];
    for (const target of targets)
      encoded.push({
        name: `${target.name}.${target.type}`,
        ...(await encode(variantOf(await fromPixels(pixels), target.width), target.type)),
      });
    return encoded;
  });
}
