// Owns how awareness (cursors, selections, who is here) crosses between instances on PostgreSQL
// (docs/decisions/0050, second slice): a NOTIFY on its own channel, one per awareness change a
// connection makes, carrying the page and the change itself — nothing of it is stored.
// SQLite has one process: nothing crosses there.
//
// A payload is `<page id>:<instance>:<what>`: the instance that sent it (so it skips its own),
// and either the base64 of a y-protocols awareness update or `?`, an instance that has just
// opened the page asking the others for their connections' states (it would otherwise wait up
// to 15 s for their next renewal), or `!` and the base64 of a notice for the page's live
// editors (notice.ts: the page's text changed from outside the document, taken in by the
// instance that saw it first; the others' editors are told too).
import 'server-only';
import type { Database } from '../data/db';

export const AWARENESS_CHANNEL = 'folio_coedit_awareness';

/**
 * The largest awareness update that crosses, in bytes. A NOTIFY payload is under 8 000 bytes;
 * base64 takes 4 for every 3, and the page id and the instance's name take under 40: 5 800
 * bytes fit with room. A client's state (a name, a colour, a cursor) takes a few hundred; a larger
 * one is dropped wherever it comes from, so what one instance shows the others can too.
 */
export const AWARENESS_MAX_BYTES = 5_800;

/** What the other instances send: states to apply, a request for the sender's, or a notice. */
export type AwarenessNotice =
  | { pageId: number; instance: string; update: Uint8Array }
  | { pageId: number; instance: string; query: true }
  | { pageId: number; instance: string; notice: string };

export function awarenessPayload(
  pageId: number,
  instance: string,
  what: Uint8Array | 'query' | { notice: string },
): string {
  const body =
    what === 'query'
      ? '?'
      : what instanceof Uint8Array
        ? Buffer.from(what).toString('base64')
        : `!${Buffer.from(what.notice).toString('base64')}`;
  return `${pageId}:${instance}:${body}`;
}

/** Null for a payload that is not one of ours (nothing else sends on the channel). */
export function readAwarenessPayload(payload: string): AwarenessNotice | null {
  const [page, instance, body, extra] = payload.split(':');
  const pageId = Number(page);
  if (!Number.isSafeInteger(pageId) || !instance || body === undefined || extra !== undefined)
    return null;
  if (body === '?') return { pageId, instance, query: true };
  const notice = body.startsWith('!');
  const base64 = notice ? body.slice(1) : body;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) return null;
  if (notice) return { pageId, instance, notice: Buffer.from(base64, 'base64').toString('utf8') };
  return { pageId, instance, update: new Uint8Array(Buffer.from(body, 'base64')) };
}

/** Sends one notice to every instance (delivered at once: no transaction around it). */
export async function publishAwareness(db: Database, payload: string): Promise<void> {
  await db.query`SELECT pg_notify(${AWARENESS_CHANNEL}, ${payload})`;
}
