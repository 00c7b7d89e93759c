// Owns the rules of a page's history of saves (docs/decisions/0031), as plain functions: when a
// save replaces the checkpoint before it (coalescing), and which checkpoints pruning drops.
// The README states the same rules; checkpoints.ts applies them inside each save.

/** A save by the same editor this long after the first save of their run replaces it. */
export const COALESCE_MINUTES = 5;
/** Hidden rows (coalesced saves, texts a publish left) are kept this long as merge bases… */
export const HIDDEN_KEEP_HOURS = 24;
/** …and at most this many per page. */
export const HIDDEN_MAX = 20;
/** Listed checkpoints kept per page, whatever their age (publishes are revisions: all kept). */
export const CHECKPOINTS_MAX = 200;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The kinds of checkpoint a history lists (hidden rows have their own kinds). */
export type CheckpointKind = 'autosave' | 'save' | 'merge' | 'restore';

/** The page's newest listed checkpoint, as coalescing needs it. */
export type LastCheckpoint = {
  kind: string;
  savedBy: string | null;
  firstSavedAt: string;
};

/**
 * Whether a save replaces the page's newest checkpoint instead of adding one: the same editor
 * (known), still within COALESCE_MINUTES of the first save it replaced, and that one an
 * ordinary save. A restore or a merge stays a point of its own, and so does the first save
 * after one.
 */
export function coalesces(
  last: LastCheckpoint | undefined,
  editor: string | null,
  kind: CheckpointKind,
  at: Date,
): boolean {
  if (!last || editor === null || last.savedBy !== editor) return false;
  if (kind !== 'autosave' && kind !== 'save') return false;
  if (last.kind !== 'autosave' && last.kind !== 'save') return false;
  const since = at.getTime() - Date.parse(last.firstSavedAt);
  return since >= 0 && since < COALESCE_MINUTES * 60_000;
}

export type CheckpointStub = { id: number; savedAt: string; hidden: boolean; version: number };

/**
 * The checkpoints of one page that pruning drops. Never the one at the page's current version
 * (the base of any tab open now). Hidden rows: after HIDDEN_KEEP_HOURS, or past the newest
 * HIDDEN_MAX. Listed ones: all of the last day; between a day and a week old, the newest of
 * each hour; older, the newest of each day (UTC); and at most CHECKPOINTS_MAX, newest first.
 */
export function checkpointsToPrune(
  rows: readonly CheckpointStub[],
  now: Date,
  currentVersion: number,
): number[] {
  const newestFirst = [...rows].sort(
    (a, b) => Date.parse(b.savedAt) - Date.parse(a.savedAt) || b.id - a.id,
  );
  const drop: number[] = [];
  const seenBuckets = new Set<string>();
  let hidden = 0;
  let listed = 0;
  for (const row of newestFirst) {
    if (row.version === currentVersion) {
      if (!row.hidden) listed += 1;
      continue;
    }
    const age = now.getTime() - Date.parse(row.savedAt);
    if (row.hidden) {
      hidden += 1;
      if (age > HIDDEN_KEEP_HOURS * HOUR || hidden > HIDDEN_MAX) drop.push(row.id);
      continue;
    }
    let keep = true;
    if (age > DAY) {
      const size = age > 7 * DAY ? DAY : HOUR;
      const bucket = `${size}:${Math.floor(Date.parse(row.savedAt) / size)}`;
      keep = !seenBuckets.has(bucket);
      seenBuckets.add(bucket);
    }
    if (keep && listed >= CHECKPOINTS_MAX) keep = false;
    if (keep) listed += 1;
    else drop.push(row.id);
  }
  return drop;
}
