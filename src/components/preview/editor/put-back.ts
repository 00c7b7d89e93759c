// Owns what "Put it back" does with the text this browser kept of an earlier visit
// (use-draft-recovery.ts) while the editor shows the page's shared document: the typing that
// never reached the server is merged into the text as it is now, never the whole text set over
// it. Since documents are started afresh when their history outgrows their text (0051,
// "Started afresh"), the kept text is the only way back for such typing, and setting it whole
// threw away every line the others wrote since (hostile pass, 2026-11-27 evening).

import { mergeBodiesKeepingBoth, mergeTexts } from '../../../lib/content/merge';
import { reopenedText } from '../../../lib/content/text-edits';
import type { EditorFormValues } from '../../../lib/editor/forms';
import { backupCovered } from './local-copy';

/** The text a tab last had in step with the server: what its later typing was typed on. */
export type InStep = Pick<EditorFormValues, 'title' | 'summary' | 'body'>;

/**
 * The form's values once `kept` (typed on `base`, when known) is put back into `now`, the
 * shared document's text. With its base, only what was typed since is merged in, as a tab
 * opening a document made again merges its unsent typing (reopenedText: each edit at its
 * place, both kept where both typed at one place); without one (a copy kept before bases
 * were), every line that differs is kept from both sides — more than was typed, never less.
 * Every other field is the kept one, as a put-back always was.
 */
export function putBackLive(
  kept: EditorFormValues,
  base: InStep | null,
  now: EditorFormValues,
): EditorFormValues {
  if (base)
    return {
      ...kept,
      title: reopenedText(kept.title, base.title, now.title),
      summary: reopenedText(kept.summary, base.summary, now.summary),
      body: reopenedText(kept.body, base.body, now.body),
    };
  const merged = mergeTexts(kept, null, now).text;
  return {
    ...kept,
    title: merged.title,
    summary: merged.summary,
    body: mergeBodiesKeepingBoth(kept.body, null, now.body),
  };
}

/**
 * Whether `kept` has nothing of its own on screen now: every line it added to its base (the
 * text it was typed on) is in the body now, and each other field is the page's as rendered or
 * the one on screen (the others' edits of the lines around it are theirs, not missing typing: the
 * hostile pass's "worse variant" offered a backup whose typing was all there, and putting it
 * back reverted them). Without a base, the lines it added to the page as rendered
 * (backupCovered).
 */
export function keptCovered(
  kept: EditorFormValues,
  base: InStep | null,
  rendered: EditorFormValues,
  now: EditorFormValues,
): boolean {
  if (!base) return backupCovered(kept, rendered, now);
  return backupCovered(kept, { ...rendered, ...base }, now);
}
