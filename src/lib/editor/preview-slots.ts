// How many live previews are made at once (issue 25's hostile pass: fifty 2 MB previews sent
// at once by one signed-in editor queued a million characters of colouring in the one
// highlighter worker that saves and publishes share, and a publish waited 20 s behind them).
// A preview is a courtesy, not a save: past the limit it is refused at once (an answer that
// says so; a JavaScript call's answer is data with a 200, action.ts), and the pane keeps what it
// shows and asks again for the latest text (use-live-preview.ts). An editor typing asks for one
// after each pause of 150 ms, so two at once is what a slow preview of a long page can need.
import 'server-only';
import { processSingleton } from '../runtime/process-singleton';

/** Previews one editor (every tab and session of theirs) may have in the making at once. */
export const PREVIEWS_PER_EDITOR = 2;
/** Previews this process makes at once, whoever asks: the highlighter's queue stays short. */
export const PREVIEWS_AT_ONCE = 6;

type Slots = { total: number; byEditor: Map<number, number> };

const slots = () =>
  processSingleton<Slots>('preview-slots', () => ({ total: 0, byEditor: new Map() }));

/**
 * Runs `make` in one of the editor's preview slots, or answers null at once when they (or the
 * process's) are all taken. The slot is given back however `make` ends.
 */
export async function inPreviewSlot<T>(
  editorId: number,
  make: () => Promise<T>,
): Promise<T | null> {
  const taken = slots();
  const theirs = taken.byEditor.get(editorId) ?? 0;
  if (theirs >= PREVIEWS_PER_EDITOR || taken.total >= PREVIEWS_AT_ONCE) return null;
  taken.byEditor.set(editorId, theirs + 1);
  taken.total += 1;
  try {
    return await make();
  } finally {
    taken.total -= 1;
    const left = (taken.byEditor.get(editorId) ?? 1) - 1;
    if (left === 0) taken.byEditor.delete(editorId);
    else taken.byEditor.set(editorId, left);
  }
}

/** The refusal's words (the pane does not show them; a caller of the action reads them). */
export const PREVIEWS_BUSY_MESSAGE =
  'Too many previews are being made at once; the pane keeps the last one and asks again.';
