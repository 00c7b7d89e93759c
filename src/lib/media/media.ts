// Owns the store of uploaded images (docs/decisions/0019): where they are kept (the database:
// every instance and every backup has them), their alt text, which page uses which image
// (media_uses, kept by migration 11's triggers), one page of the library at a time
// (media-list.ts), what may be deleted, and sizes added later (`folio media refresh`). What
// may be uploaded and the variants made of it are images.ts's; this module re-exports its
// names for callers.
import 'server-only';
import { recordAudit } from '../audit/audit';
import { ContentError } from '../content/errors';
import { siteSettingsIn } from '../content/settings';
import type { SiteSettings } from '../content/types';
import { mediaKey } from '../data/cache-keys';
import { purgeSentOrLater, purgesWanted, recordPurgeOfKeys } from '../data/cache-purges';
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
import { listMedia, mediaUses } from './media-list';
import {
  type MediaListQuery,
  type MediaListResult,
  type MediaUse,
  USES_COUNTED,
} from './media-list-params';
import {
  type ImageFormat,
  type MediaItem,
  type MediaRow,
  mediaByHashes,
  toItem,
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
 * The pages that use an image (its HTML points at it, published or in a draft: media_uses,
 * migration 11), by slug: the first `first` and how many in all (counted up to USES_COUNTED + 1).
 */
async function pagesUsing(
  q: Query,
  hash: string,
  first = 5,
): Promise<{ slugs: string[]; pages: number }> {
  // One after the other: inside the delete's transaction, one connection answers both.
  const slugs = await q<{ slug: string }>`
    SELECT p.slug FROM pages p
    WHERE p.id IN (SELECT u.page_id FROM media_uses u WHERE u.hash = ${hash}
                   ORDER BY u.page_id LIMIT ${first * 2})
    ORDER BY p.slug`;
  const [counted] = await q<{ n: number | string }>`
    SELECT COUNT(*) AS n FROM (SELECT DISTINCT page_id FROM media_uses WHERE hash = ${hash}
                               LIMIT ${USES_COUNTED + 1}) c`;
  return { slugs: slugs.slice(0, first).map((row) => row.slug), pages: Number(counted?.n ?? 0) };
}

/** What Site settings use an image as, in words: none, or its roles there. */
export function settingsUsesOf(
  settings: Pick<SiteSettings, 'socialImage' | 'favicon'>,
  hash: string,
): string[] {
  const uses: string[] = [];
  if (settings.socialImage === hash) uses.push('default social image');
  if (settings.favicon === hash) uses.push('favicon (the browser tab’s icon)');
  return uses;
}

/** Deleting an image Site settings use: refused, naming its roles there. */
export class MediaInSettingsError extends ContentError {
  constructor(readonly uses: readonly string[]) {
    super(
      'conflict',
      `Site settings use this image as the site’s ${uses.join(' and ')}: choose another there, or none, then delete it.`,
    );
  }
}

/** An author whose public profile shows an image as their photo. */
export type PhotoUse = { slug: string; name: string };

/**
 * The authors whose profile photo is one of these images, by hash (issue 27's hostile pass: the
 * library called a photo unused and let it be deleted under every byline). One indexed-or-small
 * look-up a hash: authors are the site's people, a handful per image at most.
 */
async function photoUsesIn(q: Query, hashes: readonly string[]): Promise<Map<string, PhotoUse[]>> {
  const found = new Map<string, PhotoUse[]>();
  for (const hash of new Set(hashes)) {
    const rows = await q<PhotoUse>`
      SELECT slug, name FROM authors WHERE photo = ${hash} ORDER BY slug LIMIT 6`;
    if (rows.length > 0) found.set(hash, rows);
  }
  return found;
}

/** Deleting an image an author's profile shows as their photo: refused, naming them. */
export class MediaIsPhotoError extends ContentError {
  constructor(readonly authors: readonly PhotoUse[]) {
    super(
      'conflict',
      `This image is the profile photo of ${authors.map((author) => author.name).join(', ')}: choose another photo in that profile, or none, then delete it.`,
    );
  }
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
        await recordAudit(q, {
          action: 'media.uploaded',
          actor: editor === null ? undefined : { email: editor },
          detail: { hash: image.hash, filename: displayName(filename) },
        });
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

    /** The newest `limit` images (the editor's Image menu). */
    async list({ limit }: { limit: number }): Promise<MediaItem[]> {
      const db = await opened();
      const newest = await db.query<MediaRow>`
        SELECT * FROM media ORDER BY created_at DESC, id DESC LIMIT ${limit}`;
      const variants = await variantsOf(
        db.query,
        newest.map((row) => Number(row.id)),
      );
      return newest.map((row) => toItem(row, variants));
    },

    /** One page of the library (keyset, newest first, searched), with where each image is used. */
    async page(query: MediaListQuery): Promise<MediaListResult> {
      const db = await opened();
      return listMedia(db.query, db.engine, query);
    },

    /** Where each of these images is used (pages counted, the first few named). */
    async uses(hashes: readonly string[]): Promise<Map<string, MediaUse>> {
      const db = await opened();
      return mediaUses(db.query, db.engine, hashes);
    },

    /** The authors whose profile photo each of these images is, by hash. */
    async photoUses(hashes: readonly string[]): Promise<Map<string, PhotoUse[]>> {
      const db = await opened();
      return photoUsesIn(db.query, hashes);
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

    /**
     * Deletes an image, unless Site settings, an author's profile, or a published page or a draft
     * (its text or its social image) shows it; then says which.
     */
    async remove(hash: string): Promise<void> {
      const db = await opened();
      // The check and the delete are one write transaction, and write transactions go one
      // at a time across every process: a publish committed by another instance (or the CLI)
      // between them deleted an image a published page showed (hostile pass).
      const deleted = await db.transaction(async (q) => {
        // The site's own uses first (issue 27's leftovers): every page shows them, and the
        // settings read in this transaction cannot change before the delete commits.
        const settingUses = settingsUsesOf(await siteSettingsIn(q), hash);
        if (settingUses.length > 0) throw new MediaInSettingsError(settingUses);
        // An author's photo: every byline and profile page shows it, and no page's HTML names
        // it until that page is rendered again.
        const photo = (await photoUsesIn(q, [hash])).get(hash);
        if (photo) throw new MediaIsPhotoError(photo);
        // A page's social image is in its media_refs (media-refs.ts mediaRefsOf), so below.
        // A draft's image too: publishing that draft later would show visitors a broken image.
        const { slugs, pages } = await pagesUsing(q, hash);
        if (pages > 0) {
          const named = slugs.map((slug) => `/${slug}`).join(', ');
          const more = pages > USES_COUNTED ? `more than ${USES_COUNTED}` : pages - slugs.length;
          throw new ContentError(
            'conflict',
            `This image is on ${more === 0 ? named : `${named} and ${more} more`}: take it out of ${pages === 1 ? 'that page' : 'those pages'} (and publish), then delete it.`,
          );
        }
        await q`DELETE FROM media_variants WHERE media_id IN (SELECT id FROM media WHERE hash = ${hash})`;
        const gone = await q`DELETE FROM media WHERE hash = ${hash} RETURNING id`;
        if (gone.length > 0) {
          await recordAudit(q, { action: 'media.deleted', detail: { hash } });
          // Its answers are immutable for a year in a shared cache in front: it forgets them
          // exactly when the delete commits (0045; fourth hostile pass, M1).
          if (purgesWanted()) await recordPurgeOfKeys(q, [mediaKey(hash)], new Date());
        }
        return gone;
      });
      if (deleted.length > 0 && purgesWanted()) await purgeSentOrLater();
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
