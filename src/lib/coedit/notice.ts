// Owns what live editors are told when the page's text is changed from outside their shared
// document (Folio's message 7, documents.ts): a draft discarded, a version restored, a save or
// publish from a form that is not live, the CLI. The document takes such a change in as one
// edit of its own (documents.ts takeForeignDraft); before this notice it did so silently, and
// an editor saw the words they had typed vanish a few seconds after someone else's Discard
// draft with "Saved" still on the screen (hostile pass, issue 30). Browser-safe: the server
// makes it, the browser reads it.
import type { PageChange } from '../content/types';

export type DraftNotice = {
  /** How the page was changed (pages.last_change). */
  change: PageChange;
  /** Who changed it: their name where an instance knows it, else their e-mail; null: the CLI. */
  by: string | null;
  /** Their key (awareness-identity.ts: the e-mail, trimmed and lowercased), to say "you". */
  byKey: string | null;
  /** When the document took it in (ISO). */
  at: string;
  /**
   * A discard or restore that met typing its replaced draft did not hold: that typing was
   * merged in beside it, so the text is not simply the one put back.
   */
  kept?: boolean;
};

const CHANGES: ReadonlySet<string> = new Set<PageChange>([
  'saved',
  'published',
  'unpublished',
  'discarded',
  'renamed',
  'restored',
]);
/** A name or an e-mail is far shorter; anything longer is not one of ours. */
const MAX_TEXT = 320;

export function encodeNotice(notice: DraftNotice): string {
  return JSON.stringify(notice);
}

/** The notice in `value`; null for anything that is not one (a client ignores it). */
export function parseNotice(value: string): DraftNotice | null {
  let read: unknown;
  try {
    read = JSON.parse(value);
  } catch {
    return null;
  }
  if (typeof read !== 'object' || read === null) return null;
  const { change, by, byKey, at, kept } = read as Record<string, unknown>;
  const text = (field: unknown) =>
    field === null || (typeof field === 'string' && field.length <= MAX_TEXT);
  if (typeof change !== 'string' || !CHANGES.has(change) || !text(by) || !text(byKey)) return null;
  if (typeof at !== 'string' || !Number.isFinite(Date.parse(at))) return null;
  if (kept !== undefined && typeof kept !== 'boolean') return null;
  return {
    change: change as PageChange,
    by: by as string | null,
    byKey: byKey as string | null,
    at,
    ...(kept ? { kept: true } : {}),
  };
}
