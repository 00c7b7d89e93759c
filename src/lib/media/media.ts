// Owns uploaded images: what may be uploaded (decided from the bytes, never the name or the
// browser's word), the variants made once at upload with sharp, where they are kept (the
// database: every instance and every backup has them), and which page uses which image
// (docs/decisions/0019).
import 'server-only';
import { createHash } from 'node:crypto';
import type { Metadata, Sharp, SharpOptions } from 'sharp';
import { ContentError } from '../content/content';
import { type Database, getDatabase, type Query } from '../data/db';
import { processSingleton } from '../runtime/process-singleton';
import {
  ALT_NEEDED_MESSAGE,
  type ImageFormat,
  type MediaItem,
  type MediaRow,
  mediaByHashes,
  mediaHashesInHtml,
  toItem,
  type VariantRow,
  variantsOf,
} from './media-refs';

/**
 * Widths made for `srcset` (never wider than the original). 720 is a phone's: the reading
 * column on a 360–412 px screen at 1.75–2 device pixels per px needs 560–744 px, which 960
 * overshot by nearly twice the bytes (bench: a phone's first view of three photographs). Images
 * stored before a width was added get it from `folio media refresh` (a re-upload finds the
 * image already kept: same bytes, same id).
 */
export const MEDIA_WIDTHS = [480, 720, 960, 1600] as const;
/** The formats each width is made in; the original's own format is the fallback. */
const SIZED_TYPES = ['avif', 'webp'] as const;

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

/** The largest image accepted, in pixels: more is a decompression bomb, not a photograph. */
export const MAX_IMAGE_PIXELS = 40_000_000;
/** The longest side kept of an original (phone photos are 4000–8000 px; pages need less). */
const LONGEST_KEPT_SIDE = 2400;
/** Changes here change every image's URL, so an immutable URL never serves new bytes. */
const PIPELINE_VERSION = 'v1';

const FORMATS = {
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

const refuse = (message: string) => new ContentError('invalid', message);

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
  if (width < 1 || height < 1) throw refuse('That image has no size Folio can read.');
  if (width * height > MAX_IMAGE_PIXELS)
    throw refuse(
      `That image is ${width} × ${height} pixels; Folio takes at most ${MAX_IMAGE_PIXELS / 1_000_000} million pixels. Make it smaller and upload it again.`,
    );
  return { format, width, height, pages: meta.pages ?? 1 };
}

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
  // failOn 'truncated': a cut-off upload is refused, not stored half grey.
  const source = async () =>
    (
      await image(bytes, {
        failOn: 'truncated',
        limitInputPixels: MAX_IMAGE_PIXELS,
        animated,
      })
    ).rotate();
  const hash = createHash('sha256')
    .update(PIPELINE_VERSION)
    .update(bytes)
    .digest('hex')
    .slice(0, 32);
  const variants: Variant[] = [];
  try {
    const kept = await encode(
      (await source()).resize({
        width: LONGEST_KEPT_SIDE,
        height: LONGEST_KEPT_SIDE,
        fit: 'inside',
        withoutEnlargement: true,
      }),
      format,
    );
    variants.push({ name: `original.${FORMATS[format].extension}`, ...kept });
    if (!animated)
      for (const target of variantTargets(kept.width))
        for (const type of SIZED_TYPES)
          variants.push({
            name: `${target.name}.${type}`,
            ...(await encode(variantOf(await source(), target.width), type)),
          });
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
  return plainText(alt).replace(/\s+/g, ' ').trim();
}

/** Text without control characters or bidirectional overrides. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
const UNSHOWABLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g;

function plainText(text: string): string {
  return text.replace(UNSHOWABLE, '');
}

export function altProblem(alt: string): string | null {
  if (normaliseAlt(alt) === '') return ALT_NEEDED_MESSAGE;
  if ([...alt].length > ALT_MAX) return `Keep the description to ${ALT_MAX} characters at most.`;
  return null;
}

/** A file name fit to show (never used to serve: URLs use the hash). */
function displayName(name: string | undefined): string {
  const base = plainText(String(name ?? ''))
    .replace(/^.*[\\/]/, '')
    .replace(/\s+/g, ' ');
  return [...base].slice(0, 120).join('').trim() || 'image';
}

/** Keeps one variant of image `mediaId`; false when it was kept already (the same bytes). */
async function keepVariant(q: Query, mediaId: number, variant: Variant): Promise<boolean> {
  const inserted = await q`
    INSERT INTO media_variants (media_id, name, content_type, width, height, data)
    VALUES (${mediaId}, ${variant.name}, ${variant.contentType}, ${variant.width},
            ${variant.height}, ${variant.data})
    ON CONFLICT (media_id, name) DO NOTHING RETURNING name`;
  return inserted.length > 0;
}

/**
 * The pages that use each image: `published` (visitors see it) and `draft` (only editors),
 * by slug. A page uses an image when its HTML points at it (an image, a `srcset`, a link):
 * what a browser will ask for, whatever the Markdown's spelling.
 */
async function usageIn(q: Query): Promise<Map<string, { published: string[]; draft: string[] }>> {
  const rows = await q<{ slug: string; body_html: string; kind: string }>`
    SELECT p.slug, r.body_html, 'published' AS kind FROM pages p
    JOIN revisions r ON r.id = p.published_revision_id
    UNION ALL
    SELECT p.slug, d.body_html, 'draft' AS kind FROM pages p
    JOIN drafts d ON d.page_id = p.id`;
  const usage = new Map<string, { published: string[]; draft: string[] }>();
  for (const row of rows)
    for (const hash of mediaHashesInHtml(row.body_html)) {
      const entry = usage.get(hash) ?? { published: [], draft: [] };
      (row.kind === 'published' ? entry.published : entry.draft).push(row.slug);
      usage.set(hash, entry);
    }
  return usage;
}

export function createMediaStore(database: Database | (() => Promise<Database>)) {
  const opened = () => (typeof database === 'function' ? database() : Promise.resolve(database));

  const store = {
    /**
     * Keeps a processed image with its alt text; the same bytes uploaded again are the image
     * already kept (its alt text is left as it was). Returns the kept image.
     */
    async add(
      image: ProcessedImage,
      { alt, filename, editor = null }: { alt: string; filename: string; editor?: string | null },
    ): Promise<MediaItem> {
      const problem = altProblem(alt);
      if (problem) throw refuse(problem);
      const db = await opened();
      await db.transaction(async (q) => {
        const [existing] = await q`SELECT id FROM media WHERE hash = ${image.hash}`;
        if (existing) return;
        const bytes = image.variants.reduce((sum, variant) => sum + variant.data.byteLength, 0);
        const [row] = await q<{ id: number }>`
          INSERT INTO media (hash, filename, alt, format, width, height, bytes, created_at, created_by)
          VALUES (${image.hash}, ${displayName(filename)}, ${normaliseAlt(alt)}, ${image.format},
                  ${image.width}, ${image.height}, ${bytes}, ${new Date().toISOString()}, ${editor})
          RETURNING id`;
        const id = Number(row?.id);
        for (const variant of image.variants) await keepVariant(q, id, variant);
      });
      const kept = await store.byHashes([image.hash]);
      const item = kept.get(image.hash);
      if (!item) throw new Error('media row vanished after insert');
      return item;
    },

    /** The images with these hashes (unknown ones are left out). */
    async byHashes(hashes: readonly string[]): Promise<Map<string, MediaItem>> {
      return mediaByHashes((await opened()).query, hashes);
    },

    /** Every image, newest first; or the newest `limit` (the editor's Image menu). */
    async list({ limit }: { limit?: number } = {}): Promise<MediaItem[]> {
      const db = await opened();
      if (limit !== undefined) {
        const newest = await db.query<MediaRow>`
          SELECT * FROM media ORDER BY created_at DESC, id DESC LIMIT ${limit}`;
        const variants = await variantsOf(
          db.query,
          newest.map((row) => Number(row.id)),
        );
        return newest.map((row) => toItem(row, variants));
      }
      const rows = await db.query<MediaRow>`SELECT * FROM media ORDER BY created_at DESC, id DESC`;
      // Every variant's description in one query (never the bytes).
      const variants = await db.query<VariantRow>`
        SELECT media_id, name, content_type, width, height FROM media_variants ORDER BY name`;
      return rows.map((row) => toItem(row, variants));
    },

    /** One variant's bytes and type, or null. */
    async variant(
      hash: string,
      name: string,
    ): Promise<{ contentType: string; data: Uint8Array<ArrayBuffer> } | null> {
      const db = await opened();
      const [row] = await db.query<{ content_type: string; data: Uint8Array }>`
        SELECT v.content_type, v.data FROM media_variants v JOIN media m ON m.id = v.media_id
        WHERE m.hash = ${hash} AND v.name = ${name}`;
      return row ? { contentType: row.content_type, data: new Uint8Array(row.data) } : null;
    },

    /**
     * Makes the sizes this version of Folio makes (variantTargets) for images stored before
     * it, from each image's kept original; an animated image has none and is left alone. Each
     * image is its own step: one whose original is missing or unreadable is named in
     * `problems` and the others go on. Returns the images that gained a size (`hashes`);
     * ContentStore.refreshPictures then offers them on the pages.
     */
    async refreshVariants(): Promise<{ hashes: string[]; made: number; problems: string[] }> {
      const db = await opened();
      const rows = await db.query<{
        id: number;
        hash: string;
        format: ImageFormat;
        filename: string;
      }>`SELECT id, hash, format, filename FROM media ORDER BY id`;
      const hashes: string[] = [];
      const problems: string[] = [];
      let made = 0;
      for (const row of rows) {
        const id = Number(row.id);
        const named = `image ${row.hash} (“${row.filename}”)`;
        const names = new Set(
          (
            await db.query<{ name: string }>`
              SELECT name FROM media_variants WHERE media_id = ${id}`
          ).map((variant) => variant.name),
        );
        if (![...names].some((name) => name.endsWith('.avif'))) continue;
        const [original] = await db.query<{ width: number; data: Uint8Array }>`
          SELECT width, data FROM media_variants
          WHERE media_id = ${id} AND name = ${`original.${FORMATS[row.format].extension}`}`;
        if (!original) {
          problems.push(`${named}: its original is missing, so no sizes can be made from it`);
          continue;
        }
        const missing = variantTargets(Number(original.width)).flatMap((target) =>
          SIZED_TYPES.filter((type) => !names.has(`${target.name}.${type}`)).map((type) => ({
            ...target,
            type,
          })),
        );
        if (missing.length === 0) continue;
        const bytes = new Uint8Array(original.data);
        let variants: Variant[];
        try {
          variants = await oneAtATime(async () => {
            const encoded: Variant[] = [];
            for (const target of missing) {
              const source = await image(bytes, {
                failOn: 'truncated',
                limitInputPixels: MAX_IMAGE_PIXELS,
              });
              encoded.push({
                name: `${target.name}.${target.type}`,
                ...(await encode(variantOf(source, target.width), target.type)),
              });
            }
            return encoded;
          });
        } catch {
          problems.push(`${named}: its original cannot be read, so no sizes were made from it`);
          continue;
        }
        let added = 0;
        await db.transaction(async (q) => {
          // Another instance or run may have made the same size meanwhile (the same bytes):
          // only what this run inserted is counted.
          for (const variant of variants) if (await keepVariant(q, id, variant)) added++;
          await q`UPDATE media SET bytes =
                    (SELECT SUM(LENGTH(data)) FROM media_variants WHERE media_id = ${id})
                  WHERE id = ${id}`;
        });
        if (added > 0) hashes.push(row.hash);
        made += added;
      }
      return { hashes, made, problems };
    },

    async setAlt(hash: string, alt: string): Promise<void> {
      const problem = altProblem(alt);
      if (problem) throw refuse(problem);
      const db = await opened();
      // Kept as an upload keeps it: no control characters (PostgreSQL refuses a NUL outright),
      // no bidirectional overrides, one line (hostile pass).
      const changed =
        await db.query`UPDATE media SET alt = ${normaliseAlt(alt)} WHERE hash = ${hash} RETURNING id`;
      if (changed.length === 0)
        throw new ContentError('not-found', 'That image was deleted meanwhile.');
    },

    /** The pages that use each image (usageIn), as committed now. */
    async usage(): Promise<Map<string, { published: string[]; draft: string[] }>> {
      return usageIn((await opened()).query);
    },

    /** Deletes an image, unless a published page or a draft shows it (then says which). */
    async remove(hash: string): Promise<void> {
      const db = await opened();
      // The check and the delete are one write transaction, and write transactions go one
      // at a time across every process: a publish committed by another instance (or the CLI)
      // between them deleted an image a published page showed (hostile pass).
      const deleted = await db.transaction(async (q) => {
        // A draft's image too: publishing that draft later would show visitors a broken image.
        const { published = [], draft = [] } = (await usageIn(q)).get(hash) ?? {};
        const used = [...new Set([...published, ...draft])];
        if (used.length > 0)
          throw new ContentError(
            'conflict',
            `This image is on ${used.map((slug) => `/${slug}`).join(', ')}: take it out of ${used.length === 1 ? 'that page' : 'those pages'} (and publish), then delete it.`,
          );
        await q`DELETE FROM media_variants WHERE media_id IN (SELECT id FROM media WHERE hash = ${hash})`;
        return q`DELETE FROM media WHERE hash = ${hash} RETURNING id`;
      });
      // A stale tab, or a forged hash: it was not there to delete.
      if (deleted.length === 0)
        throw new ContentError('not-found', 'That image was deleted meanwhile.');
    },
  };
  return store;
}

export type MediaStore = ReturnType<typeof createMediaStore>;

/** The process's media store, on the process's database. */
export function mediaStore(): MediaStore {
  return processSingleton('media-store', () => createMediaStore(getDatabase));
}
