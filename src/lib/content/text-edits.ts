// Owns the edits between two texts and the merges made of them, where nobody is there to
// choose: a tab opening its page's document made again (use-live-document.ts), a binding taking
// another's text while someone types (body-codemirror.ts), and the server writing a deleted
// document's text over a draft another instance wrote meanwhile (coedit/documents.ts). Shared by
// the browser and the server, so it imports nothing of either.
import { diffArrays } from 'diff';

/** One edit of a text: `remove` characters at `at` replaced by `insert`. */
export type TextEdit = { at: number; remove: number; insert: string };

/**
 * The smallest edit that turns `from` into `to` (the common start and end kept), never splitting
 * a surrogate pair: what the binding applies to the document for text typed before it synced.
 */
export function smallestEdit(from: string, to: string): TextEdit {
  let start = 0;
  const shortest = Math.min(from.length, to.length);
  while (start < shortest && from.charCodeAt(start) === to.charCodeAt(start)) start += 1;
  if (start > 0 && /[\uD800-\uDBFF]/.test(from.charAt(start - 1))) start -= 1;
  let end = 0;
  while (
    end < shortest - start &&
    from.charCodeAt(from.length - 1 - end) === to.charCodeAt(to.length - 1 - end)
  )
    end += 1;
  if (end > 0 && /[\uDC00-\uDFFF]/.test(from.charAt(from.length - end))) end -= 1;
  return { at: start, remove: from.length - start - end, insert: to.slice(start, to.length - end) };
}

/** Past this many lines changed, `textEdits` gives one edit from the first to the last. */
const TEXT_EDITS_MAX = 2_000;

/**
 * The edits that turn `from` into `to`, each at its place in `from` and in order, the lines
 * between them kept: what a text taking another's changes while someone types in it needs. One
 * edit from the first difference to the last (smallestEdit) deletes and types again everything
 * between — the typist's caret thrown to its end, and a person's keystroke landing there
 * meanwhile typed into text that is gone (the hostile pass on documents made again: tokens
 * outside their paragraph, one missing). Lines are compared first (cheap at any size), then
 * each changed run of lines is cut to its smallest edit.
 */
export function textEdits(from: string, to: string): TextEdit[] {
  const edits: TextEdit[] = [];
  for (const run of changedWords(from, to)) {
    const edit = smallestEdit(run.removed, run.added);
    if (edit.remove > 0 || edit.insert !== '') edits.push({ ...edit, at: run.at + edit.at });
  }
  return edits;
}

/** A run of lines changed: `removed` (at `at` in the first text) made `added`. */
type ChangedRun = { at: number; removed: string; added: string };

/**
 * The runs of lines that differ between `from` and `to`, in order, each at its place in `from`
 * (lines compared: cheap at any size). Past TEXT_EDITS_MAX lines changed, one run from the first
 * difference to the last.
 */
function changedRuns(from: string, to: string): ChangedRun[] {
  const outer = smallestEdit(from, to);
  if (outer.remove === 0 && outer.insert === '') return [];
  const whole = [
    {
      at: outer.at,
      removed: from.slice(outer.at, outer.at + outer.remove),
      added: outer.insert,
    },
  ];
  const lines = (text: string) => text.split(/(?<=\n)/).filter((line) => line !== '');
  const parts = diffArrays(lines(from), lines(to), { maxEditLength: TEXT_EDITS_MAX });
  return parts ? runsOf(parts, 0) : whole;
}

/**
 * The changed runs a comparison of pieces (lines, words) says, each at its place in the first
 * text, which starts at `start`: the removed and added pieces between two kept ones are one run.
 */
function runsOf(
  parts: readonly { value: string[]; added?: boolean; removed?: boolean }[],
  start: number,
): ChangedRun[] {
  const runs: ChangedRun[] = [];
  let at = start;
  let run: ChangedRun | null = null;
  for (const part of parts) {
    const text = part.value.join('');
    if (!part.added && !part.removed) {
      if (run) runs.push(run);
      run = null;
      at += text.length;
      continue;
    }
    run ??= { at, removed: '', added: '' };
    if (part.removed) {
      run.removed += text;
      at += text.length;
    } else run.added += text;
  }
  if (run) runs.push(run);
  return runs;
}

/** Past this many words changed in a run of lines, the run is one change. */
const CHANGED_WORDS_MAX = 2_000;

/** A text's words, each with the space before it (a run of lines compared word by word). */
function wordsOf(text: string): string[] {
  // The space after the last word (a line's end) is one of its own: stuck to that word, it made
  // the word another wherever more was typed after it.
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

/**
 * The runs of words that differ between `from` and `to`, in order, each at its place in `from`:
 * the changed runs of lines (changedRuns), each compared word by word — so that a paragraph
 * typed into at several places by several people is several changes, each where it was made.
 * As one change from its first difference to its last, the words between were taken out and
 * put in again, and merged that way they were doubled or split (the hostile pass on three tabs:
 * "kb013a004", "kc00kb0075"). Words are compared with the space before them: alone, spaces
 * line up with spaces and the words between pair off as if one had been changed into another.
 */
function changedWords(from: string, to: string): ChangedRun[] {
  const runs: ChangedRun[] = [];
  for (const lines of changedRuns(from, to)) {
    if (lines.removed === '' || lines.added === '') {
      runs.push(lines);
      continue;
    }
    const parts = diffArrays(wordsOf(lines.removed), wordsOf(lines.added), {
      maxEditLength: CHANGED_WORDS_MAX,
    });
    runs.push(...(parts ? runsOf(parts, lines.at) : [lines]));
  }
  return runs;
}

/**
 * The body the editor shows when it opens a document made again (use-live-document.ts): the new
 * document's, with what this tab typed beyond `stored` (what the old one had stored from it)
 * merged in once. Each side's edits of `stored` are taken at their places (textEdits); where
 * they meet — two people typing at the end of one paragraph, one through the remake and one
 * unsent — every deletion is made and both insertions are kept, the other's first: each is text
 * someone typed, and nobody is there to choose. (Lines kept twice, as a three-way merge of
 * lines keeps a conflict, doubled such a paragraph: the hostile pass.)
 */
export function reopenedText(typed: string, stored: string, remote: string): string {
  if (typed === stored || typed === remote) return remote;
  if (remote === stored) return typed;
  const mine = textEdits(stored, typed);
  const theirs = textEdits(stored, remote);
  let text = '';
  let at = 0;
  let i = 0;
  let j = 0;
  while (i < mine.length || j < theirs.length) {
    const start = Math.min(mine[i]?.at ?? Infinity, theirs[j]?.at ?? Infinity);
    let end = start;
    let mineInsert = '';
    let theirsInsert = '';
    // Every edit of either side that starts within (or right at the end of) the run so far.
    for (;;) {
      const next = (mine[i]?.at ?? Infinity) <= (theirs[j]?.at ?? Infinity) ? mine[i] : theirs[j];
      if (!next || next.at > end) break;
      if (next === mine[i]) {
        mineInsert += next.insert;
        i += 1;
      } else {
        theirsInsert += next.insert;
        j += 1;
      }
      end = Math.max(end, next.at + next.remove);
    }
    text += stored.slice(at, start) + theirsInsert + mineInsert;
    at = end;
  }
  return text + stored.slice(at);
}

/**
 * `theirs` with every word `mine` has that it lacks put in at its place, and nothing taken out:
 * two copies of one shared document that each missed some of the other's last updates, written
 * over each other (the server's instances rescuing a document whose rows were deleted by hand,
 * decision record 0051). Whatever one side deleted that the other still had stays: a deletion
 * undone is seen and made again, a typed character lost is not.
 *
 * Compared by words within each changed run of lines, so that what both hold is there once:
 * one edit from the first difference to the last (smallestEdit), kept both ways, put every word
 * between in twice (the hostile pass: tokens doubled, "ka010kb005"). A word one side has where
 * the other has it with more letters ("ka00q", "ka002q": a letter the other had not heard of) is
 * merged letter by letter; two other words are both kept.
 */
export function keptBothText(theirs: string, mine: string): string {
  let text = '';
  let at = 0;
  for (const run of changedWords(theirs, mine)) {
    text += theirs.slice(at, run.at) + keptBothWords(run.removed, run.added);
    at = run.at + run.removed.length;
  }
  return text + theirs.slice(at);
}

/**
 * One side's words where the other has others: letter by letter when one is the other with
 * letters more ("ka00", "ka004": letters the other had not heard of), both whole otherwise,
 * theirs first (merged letter by letter, "kb005" and "ka005" made "kba005").
 */
function keptBothWords(theirs: string, mine: string): string {
  const edit = smallestEdit(theirs, mine);
  // Only taken out on mine: kept. Only put in: put in at its place.
  if (edit.insert === '') return theirs;
  if (edit.remove === 0) return theirs.slice(0, edit.at) + edit.insert + theirs.slice(edit.at);
  return theirs + mine;
}
