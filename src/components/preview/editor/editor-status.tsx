// The editor's status line: a refusal is said at once (an alert); saving and saved are polite
// news, and "Unsaved changes" is "saved" with text that differs since.
import { LocalTime } from '../local-time';
import type { Status } from './editor-text';

export function EditorStatus({ status, dirty }: { status: Status; dirty: boolean }) {
  return status.kind === 'failed' ? (
    <p className="editor-status failed" role="alert">
      {status.message}
    </p>
  ) : (
    <p className="editor-status" role="status" aria-live="polite">
      {status.kind === 'saving' ? (
        'Saving…'
      ) : dirty ? (
        'Unsaved changes'
      ) : status.at ? (
        <>
          Saved <LocalTime iso={status.at} />
        </>
      ) : (
        'Not saved yet'
      )}
    </p>
  );
}
