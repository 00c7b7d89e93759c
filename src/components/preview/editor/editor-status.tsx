// The editor's status line: a refusal is said at once (an alert); saving and saved are polite
// news, and "Unsaved changes" is "saved" with text that differs since. While the body is a
// shared document (decision record 0051) its side is said too: "Saving…" until the server has
// acknowledged every change typed here as stored, "Saved" once it has (the server writes the
// draft about a second later), and a lost or refused connection in words.

import { LocalTime } from '../local-time';
import type { Status } from './editor-text';
import { type LivePhase, liveStatusOf } from './live-presence';

export function EditorStatus({
  status,
  dirty,
  live,
}: {
  status: Status;
  dirty: boolean;
  /** The shared document's side, while the editor is bound to it. */
  live?: { phase: LivePhase; pending: number; ackedAt: string | null; reason: string | null };
}) {
  const document = live ? liveStatusOf(live.phase, live.pending, live.reason) : null;
  // Stopped for good in this tab (the page renamed, another person signed in): that is what to
  // read, over an earlier refusal of the form's (its session ended, say) still on the line.
  if (document?.kind === 'refused' && (live?.phase === 'moved' || live?.phase === 'someoneElse'))
    return (
      <p className="editor-status failed" role="alert">
        {document.message}
      </p>
    );
  if (status.kind === 'failed')
    return (
      <p className="editor-status failed" role="alert">
        {status.message}
      </p>
    );
  if (document?.kind === 'refused')
    return (
      <p className="editor-status failed" role="alert">
        {document.message}
      </p>
    );
  const at =
    document?.kind === 'saved'
      ? (live?.ackedAt ?? (status.kind === 'saved' ? status.at : null))
      : status.kind === 'saved'
        ? status.at
        : null;
  return (
    <p className="editor-status" role="status" aria-live="polite">
      {document?.kind === 'offline' ? (
        document.message
      ) : status.kind === 'saving' || document?.kind === 'saving' ? (
        'Saving…'
      ) : dirty ? (
        'Unsaved changes'
      ) : at ? (
        <>
          Saved <LocalTime iso={at} />
        </>
      ) : (
        'Not saved yet'
      )}
    </p>
  );
}
