// Owns the preview pane's HTML: the body rendered by the server as visitors will get it,
// asked for a moment after typing stops (only the latest answer is shown: an older keystroke's
// answer arriving late is dropped), and the Preview a submit without JavaScript came back with.
// A body longer than a page holds is not previewed: the pane says so, in the save's words.
// The server answers with the page's blocks by id and the HTML of the blocks the pane does not
// show yet (issue 25): a keystroke in a 5 000-line page brings one paragraph back, and the
// pane (LivePreviewBody) replaces only that.
import { useEffect, useRef, useState } from 'react';
import { BODY_MAX, bodyTooLongMessage, characterCount } from '../../../lib/content/field-limits';
import { previewDraft } from '../../../lib/editor/actions/pages';
import type { EditorFormState } from '../../../lib/editor/forms';
import { escapeHtml } from '../../../lib/observability/fallback-page';

/** Long enough not to ask at every key of a word, short enough to follow the typing. */
export const PREVIEW_AFTER_MS = 150;
/** How long a refused preview waits before the latest text is asked for again. */
const PREVIEW_RETRY_MS = 400;

/** What the pane shows: the whole HTML, or blocks by id (from the live preview). */
export type PreviewContent =
  | { kind: 'html'; html: string }
  | { kind: 'blocks'; ids: readonly string[]; html: ReadonlyMap<string, string> };

/** The pane's words instead of a preview (the message is Folio's own text, never typed text). */
function refusedContent(message: string): PreviewContent {
  return { kind: 'html', html: `<p class="live-preview-refused">${escapeHtml(message)}</p>` };
}

export function useLivePreview({
  initialHtml,
  formState,
  body,
  enhanced,
}: {
  initialHtml: string;
  formState: EditorFormState | undefined;
  body: string;
  enhanced: boolean;
}): PreviewContent {
  const [content, setContent] = useState<PreviewContent>({
    kind: 'html',
    html: formState?.previewHtml ?? initialHtml,
  });
  // What the latest answer showed, for the next call's `have`.
  const shown = useRef<{ ids: readonly string[]; html: ReadonlyMap<string, string> } | null>(null);

  useEffect(() => {
    if (formState?.previewHtml === undefined) return;
    shown.current = null;
    setContent({ kind: 'html', html: formState.previewHtml });
  }, [formState]);

  const previewRequest = useRef(0);
  useEffect(() => {
    if (!enhanced) return;
    const request = ++previewRequest.current;
    const length = characterCount(body);
    if (length > BODY_MAX) {
      // Not asked for: the server refuses a body no page can hold, in these same words.
      shown.current = null;
      setContent(refusedContent(bodyTooLongMessage(length, 'previewed')));
      return;
    }
    const ask = async () => {
      // The blocks this call builds on: an answer is read against what was shown when it was
      // asked, whatever arrived meanwhile.
      const known = shown.current;
      try {
        const answer = await previewDraft({
          body,
          have: known ? [...new Set(known.ids)] : [],
        });
        if (request !== previewRequest.current) return;
        if ('tooLong' in answer) {
          shown.current = null;
          setContent(refusedContent(answer.error));
          return;
        }
        if (!('ids' in answer)) {
          // Refused (the server makes only so many previews at once, preview-slots.ts): the
          // latest text is asked for again, so the pane does not stay behind the typing.
          timer = setTimeout(ask, PREVIEW_RETRY_MS);
          return;
        }
        const html = new Map<string, string>();
        for (const id of answer.ids) {
          const block = answer.html[id] ?? known?.html.get(id);
          // Not in the answer nor on screen: cannot happen; the next keystroke asks afresh.
          if (block === undefined) return;
          html.set(id, block);
        }
        shown.current = { ids: answer.ids, html };
        setContent({ kind: 'blocks', ids: answer.ids, html });
      } catch {
        // The pane keeps the last preview; the status line speaks about saving.
      }
    };
    let timer = setTimeout(ask, PREVIEW_AFTER_MS);
    return () => clearTimeout(timer);
  }, [enhanced, body]);

  return content;
}
