// Owns the store of uploaded images (docs/decisions/0019): where they are kept (the database:
// every instance and every backup has them), their alt text, which page uses which image, what
// may be deleted, and sizes added later (`folio media refresh`). What may be uploaded and the
// variants made of it are images.ts's; this module re-exports its names for callers.
import 'server-only';
import { ContentError } from '../content/errors';
import { type Database, getDatabase, type Query } from '../data/db';
import { processSingleton } from '../runtime/process-singleton';
import {
  altProblem,
  displayName,
  encodeSizes,
  FORMATS,
  normaliseAlt,
  type ProcessedImage,
  refuse,
  SIZED_TYPES,
  type Variant,
  variantTargets,
} from './images';
import {
  type ImageFormat,
  type MediaItem,
  type MediaRow,
  mediaByHashes,
  mediaHashesInHtml,
  toItem,
  type VariantRow,
  variantsOf,
} from './media-refs';

export {
  ACCEPTED_TYPES_TEXT,
  ALT_MAX,
  altProblem,
  MAX_IMAGE_PIXELS,
  MEDIA_WIDTHS,
  normaliseAlt,
  type ProcessedImage,
  processImage,
  type Variant,
  variantTargets,
} from './images';

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
          variants = await encodeSizes(bytes, missing);
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
