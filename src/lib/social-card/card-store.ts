// Owns making a published page's social card on request: checking that the address is the one
// the page's current published revision makes (one read by primary key, before anything is
// drawn), then drawing it once per key and keeping the PNG on disk, so later requests — and
// other processes on this machine — read the file (docs/decisions/0034).
import 'server-only';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { siteSettingsIn } from '../content/settings';
import { type Database, getDatabase } from '../data/db';
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

export function createCardStore({
  database = getDatabase,
  directory = path.join(tmpdir(), 'folio-social-cards'),
}: {
  database?: () => Promise<Database>;
  directory?: string;
} = {}) {
  // One drawing per key at a time: a burst of crawlers asking for a new card draws it once.
  const drawing = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();

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
  };
}

export type CardStore = ReturnType<typeof createCardStore>;

/** The process's cards, on the process's database. */
export function socialCards(): CardStore {
  return processSingleton('social-cards', () => createCardStore());
}
