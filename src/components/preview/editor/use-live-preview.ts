// Owns the preview pane's HTML: the body rendered by the server as visitors will get it,
// asked for a moment after typing stops (the latest answer wins), and the Preview a submit
// without JavaScript came back with.
import { useEffect, useRef, useState } from 'react';
import { BODY_MAX } from '../../../lib/content/field-limits';
import { previewDraft } from '../../../lib/editor/actions/pages';
import type { EditorFormState } from '../../../lib/editor/forms';

const PREVIEW_AFTER_MS = 300;

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
}): string {
  const [previewHtml, setPreviewHtml] = useState(formState?.previewHtml ?? initialHtml);

  useEffect(() => {
    if (formState?.previewHtml !== undefined) setPreviewHtml(formState.previewHtml);
  }, [formState]);

  const previewRequest = useRef(0);
  useEffect(() => {
    if (!enhanced) return;
    const request = ++previewRequest.current;
    const timer = setTimeout(async () => {
      try {
        const answer = await previewDraft({ body: body.slice(0, BODY_MAX) });
        if (request === previewRequest.current && 'html' in answer) setPreviewHtml(answer.html);
      } catch {
        // The pane keeps the last preview; the status line speaks about saving.
      }
    }, PREVIEW_AFTER_MS);
    return () => clearTimeout(timer);
  }, [enhanced, body]);

  return previewHtml;
}
