// Owns merging an editor's text with a version saved meanwhile (docs/decisions/0031): a
// three-way merge (node-diff3) of theirs and mine against the version the editor's tab started
// from, line by line — a paragraph is a line as editors type Markdown, and the blank line
// between two paragraphs keeps their changes apart. Changes to different paragraphs are both
// kept; where both changed the same lines differently, the editor chooses, region by region:
// theirs, mine, or both (mine, then theirs). Title and summary are one value each.
// Browser-safe and pure: the save (save-page.ts) and its tests call it alike.
import { diffArrays } from 'diff';
import { diff3Merge } from 'node-diff3';

export type MergeText = { title: string; summary: string; body: string };

export const MERGE_CHOICES = ['mine', 'theirs', 'both'] as const;
export type MergeChoice = (typeof MERGE_CHOICES)[number];

/** Where both sides changed the same lines differently: what each side and the base say. */
export type MergeConflict = {
  field: keyof MergeText;
  base: string;
  mine: string;
  theirs: string;
};

export type MergeResult = {
  /** Mine and theirs together, each conflict resolved by `choose` (mine, unless chosen). */
  text: MergeText;
  /** The conflicts, in field order (title, summary, then the body's, top to bottom). */
  conflicts: MergeConflict[];
};

function chosen(conflict: MergeConflict, choice: MergeChoice, separator: string): string {
  if (choice === 'theirs') return conflict.theirs;
  if (choice === 'both' && conflict.theirs !== '' && conflict.mine !== '')
    return `${conflict.mine}${separator}${conflict.theirs}`;
  if (choice === 'both') return conflict.mine + conflict.theirs;
  return conflict.mine;
}

/** For each line of `base`, the line of `other` it is matched to (jsdiff, Myers), or -1. */
function matchedLines(base: readonly string[], other: readonly string[]): Int32Array {
  const map = new Int32Array(base.length).fill(-1);
  let i = 0;
  let j = 0;
  for (const part of diffArrays(base as string[], other as string[])) {
    const count = part.count ?? part.value.length;
    if (part.added) j += count;
    else if (part.removed) i += count;
    else {
      for (let k = 0; k < count; k += 1) map[i + k] = j + k;
      i += count;
      j += count;
    }
  }
  return map;
}

type Region = { ok: string[] } | { conflict: { a: string[]; o: string[]; b: string[] } };

/**
 * diff3 of line lists, a region at a time: the lines of the base neither side changed
 * (matched on both sides by jsdiff's O(ND) diff) cut the texts into small pieces, and
 * node-diff3 merges each. Whole, its LCS grows with the square of the page (a 5 000-line page
 * took seconds; its blank lines, all alike, far longer).
 */
function mergeLines(a: readonly string[], o: readonly string[], b: readonly string[]): Region[] {
  const inMine = matchedLines(o, a);
  const inTheirs = matchedLines(o, b);
  const regions: Region[] = [];
  let afterO = 0;
  let afterA = 0;
  let afterB = 0;
  const between = (endO: number, endA: number, endB: number) => {
    if (endO === afterO && endA === afterA && endB === afterB) return;
    for (const region of diff3Merge(
      a.slice(afterA, endA),
      o.slice(afterO, endO),
      b.slice(afterB, endB),
      { excludeFalseConflicts: true },
    )) {
      if (region.ok) regions.push({ ok: region.ok });
      else if (region.conflict)
        regions.push({
          conflict: { a: region.conflict.a, o: region.conflict.o, b: region.conflict.b },
        });
    }
  };
  for (let i = 0; i < o.length; i += 1) {
    const mine = inMine[i] ?? -1;
    const theirs = inTheirs[i] ?? -1;
    if (mine < 0 || theirs < 0) continue;
    between(i, mine, theirs);
    regions.push({ ok: [o[i] ?? ''] });
    afterO = i + 1;
    afterA = mine + 1;
    afterB = theirs + 1;
  }
  between(o.length, a.length, b.length);
  return regions;
}

/**
 * Merges `mine` and `theirs`, both made from `base`. With no base (no longer kept), every
 * difference is a conflict: nothing is merged that the editor has not seen. `choices` are by
 * conflict index; a conflict without one keeps mine (the text the editor's form showed).
 */
export function mergeTexts(
  mine: MergeText,
  base: MergeText | null,
  theirs: MergeText,
  choices: readonly (MergeChoice | undefined)[] = [],
): MergeResult {
  const conflicts: MergeConflict[] = [];
  const resolve = (conflict: MergeConflict, separator: string) => {
    const choice = choices[conflicts.length] ?? 'mine';
    conflicts.push(conflict);
    return chosen(conflict, choice, separator);
  };
  const line = (field: 'title' | 'summary') => {
    if (mine[field] === theirs[field]) return mine[field];
    if (base && mine[field] === base[field]) return theirs[field];
    if (base && theirs[field] === base[field]) return mine[field];
    return resolve(
      { field, base: base?.[field] ?? '', mine: mine[field], theirs: theirs[field] },
      ' ',
    );
  };
  const title = line('title');
  const summary = line('summary');
  let body: string;
  if (mine.body === theirs.body) body = mine.body;
  else if (base && mine.body === base.body) body = theirs.body;
  else if (base && theirs.body === base.body) body = mine.body;
  else {
    const lines: string[] = [];
    const regions = mergeLines(
      mine.body.split('\n'),
      (base?.body ?? '').split('\n'),
      theirs.body.split('\n'),
    );
    for (const region of regions) {
      if ('ok' in region) lines.push(...region.ok);
      else {
        const { a, o, b } = region.conflict;
        // A blank line between the two sides of "both": they stay two paragraphs.
        lines.push(
          resolve(
            { field: 'body', base: o.join('\n'), mine: a.join('\n'), theirs: b.join('\n') },
            '\n\n',
          ),
        );
      }
    }
    body = lines.join('\n');
  }
  return { text: { title, summary, body }, conflicts };
}

/**
 * `mine` and `theirs` bodies merged from `base` with nothing asked: where both changed the same
 * lines, both are kept (mine, then theirs). For merges no one is there to answer — a save by
 * another path taken into a page's shared document (0050, 0051) — where dropping either side's
 * lines would throw away text someone was told was saved.
 */
export function mergeBodiesKeepingBoth(mine: string, base: string | null, theirs: string): string {
  const only = (body: string): MergeText => ({ title: '', summary: '', body });
  const from = base === null ? null : only(base);
  const places = mergeTexts(only(mine), from, only(theirs)).conflicts;
  return mergeTexts(
    only(mine),
    from,
    only(theirs),
    places.map(() => 'both' as const),
  ).text.body;
}

/** A short fingerprint of a merge's conflicts: choices made for one set never apply to another. */
export function conflictsKey(conflicts: readonly MergeConflict[]): string {
  let hash = 5381;
  for (const conflict of conflicts)
    for (const text of [conflict.field, conflict.base, conflict.mine, conflict.theirs, '\u0000'])
      for (let i = 0; i < text.length; i += 1) hash = ((hash * 33) ^ text.charCodeAt(i)) >>> 0;
  return `${conflicts.length}-${hash.toString(36)}`;
}
