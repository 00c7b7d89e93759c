// Owns making a published page's social card on request: checking that the address is the one
// the page's current published revision makes (one read by primary key, before anything is
// drawn), then drawing it once per key and keeping the PNG on disk, so later requests — and
// other processes on this machine — read the file (docs/decisions/0034). A page keeps one card
// on disk: its old ones go when a new one is drawn, and all of them when it is unpublished or
// deleted (its content event), so the folder holds at most one card a published page.
import 'server-only';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ContentEvent } from '../content/events';
import { siteSettingsIn } from '../content/settings';
import { mediaKey } from '../data/cache-keys';
import { purgeRecorded, purgesWanted, recordPurgeOfKeys } from '../data/cache-purges';
import { type Database, getDatabase } from '../data/db';
import { log } from '../observability/log';
import { getEnv } from '../runtime/env';
import { processSingleton } from '../runtime/process-singleton';
import { type CardSource, cardKey } from './card-address';
import { renderCard } from './card-image';

/** The published revision's title and time, or null when the page is not published. */
async function publishedSource(db: Database, pageId: number): Promise<CardSource | null> {
  const [row] = await db.query<{ title: string; published_at: string }>`
    SELECT r.title, r.published_at FROM pages p
    JOIN revisions r ON r.id = p.published_revision_id
    WHERE p.id = ${pageId}`;
  if (!row) return null;
  const settings = await siteSettingsIn(db.query);
  return {
    pageId,
    publishedAt: row.published_at,
    title: row.title,
    siteTitle: settings.title,
    accent: settings.accent,
  };
}

/** A card's file: `<key>-<page id>.png`, or its half-written copy `….png.<pid>.partial`. */
const CARD_FILE = /^([0-9a-f]{32})-(\d{1,9})\.png(?:\.\d+\.partial)?$/;

/**
 * The folder of one site's cards: named by its database, since a file is `<key>-<page id>` and
 * page ids are a database's own — two sites on one machine (the suite's two engines at once,
 * tonight's flaky purge test) removed each other's cards of the same page id.
 */
export function cardDirectoryFor(databaseUrl: string): string {
  const site = createHash('sha256').update(databaseUrl).digest('hex').slice(0, 16);
  return path.join(tmpdir(), `folio-social-cards-${site}`);
}

export function createCardStore({
  database = getDatabase,
  directory = cardDirectoryFor(getEnv().DATABASE_URL),
}: {
  database?: () => Promise<Database>;
  directory?: string;
} = {}) {
  // One drawing per key at a time: a burst of crawlers asking for a new card draws it once.
  const drawing = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();

  /**
   * Removes the page's cards but `keep` (a file name), and what a crash left half-written of
   * them. Only files named as cards are touched: `<32 hex>-<page id>.png`.
   */
  async function removeCards(pageId: number, keep?: string): Promise<number> {
    let names: string[];
    try {
      names = await readdir(directory);
    } catch {
      return 0; // No folder: no cards drawn yet.
    }
    const gone: { name: string; key: string }[] = [];
    for (const name of names) {
      const card = CARD_FILE.exec(name);
      if (card?.[1] && Number(card[2]) === pageId && name !== keep)
        gone.push({ name, key: card[1] });
    }
    // Every instance on the database handles the event, and they share the folder: each card
    // is taken aside by one of them (a rename succeeds once), and only what this process took
    // is purged — a busy CI run saw the same key purged by two instances.
    const taken: { name: string; key: string; aside: string }[] = [];
    for (const card of gone) {
      const aside = path.join(directory, `${card.name}.${process.pid}.gone`);
      try {
        await rename(path.join(directory, card.name), aside);
        taken.push({ ...card, aside });
      } catch {
        // Another process took it, or it is gone already.
      }
    }
    // The purge before the files go: if it cannot be recorded, they are put back and the next
    // removal retries.
    try {
      await forgetInCache(taken.map((card) => card.key));
    } catch (error) {
      for (const card of taken)
        await rename(card.aside, path.join(directory, card.name)).catch(() => undefined);
      throw error;
    }
    for (const { aside } of taken) await rm(aside, { force: true });
    return taken.length;
  }

  /**
   * A card's answer is immutable for a year in a shared cache in front; one taken off this disk
   * (its page unpublished, or a newer card drawn) is purged there too (0045, fourth hostile
   * pass M1). After the fact, not in the change's transaction: only the disk knows which
   * cards were drawn, and so which keys a cache can hold.
   */
  async function forgetInCache(keys: readonly string[]): Promise<void> {
    if (keys.length === 0 || !purgesWanted()) return;
    await recordPurgeOfKeys((await database()).query, keys.map(mediaKey), new Date());
    // Sent in the background: a card goes after the event that unpublished its page.
    void purgeRecorded();
  }

  async function draw(source: CardSource, key: string): Promise<Uint8Array<ArrayBuffer>> {
    const file = path.join(directory, `${key}-${source.pageId}.png`);
    try {
      return new Uint8Array(await readFile(file));
    } catch {
      // Not drawn yet on this machine.
    }
    const png = await renderCard(source);
    await mkdir(directory, { recursive: true });
    // Written aside and renamed: a reader never sees half a file.
    const partial = `${file}.${process.pid}.partial`;
    await writeFile(partial, png);
    await rename(partial, file);
    // This card replaces the page's earlier ones (an old revision's, an old title's). The
    // new card is answered even if that fails: the old files stay for the next drawing.
    await removeCards(source.pageId, path.basename(file)).catch((error: unknown) => {
      log.warn('old social cards stay until the next one is drawn', {
        pageId: source.pageId,
        reason: error instanceof Error ? error.message : String(error),
      });
    });
    return png;
  }

  return {
    /** The card at `/media/<key>/card-<pageId>.png`, or null: not the current card of a page. */
    async card(key: string, pageId: number): Promise<Uint8Array<ArrayBuffer> | null> {
      const source = await publishedSource(await database(), pageId);
      if (!source || cardKey(source) !== key) return null;
      let pending = drawing.get(key);
      if (!pending) {
        pending = draw(source, key).finally(() => drawing.delete(key));
        drawing.set(key, pending);
      }
      return pending;
    },

    /** Removes a page's cards (all of them): it was unpublished or deleted. */
    removeCards: (pageId: number) => removeCards(pageId),

    /** A content event's part for the cards: an unpublished or deleted page's go. */
    async onContentEvent(event: ContentEvent): Promise<void> {
      if (event.pageId === null) return;
      if (event.type === 'page.deleted' || event.type === 'page.unpublished')
        await removeCards(event.pageId);
    },
  };
}

export type CardStore = ReturnType<typeof createCardStore>;

/** The process's cards, on the process's database. */
export function socialCards(): CardStore {
  return processSingleton('social-cards', () => createCardStore());
}
