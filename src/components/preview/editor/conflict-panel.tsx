// The version saved meanwhile, beside the editor's own: Keep mine (a save over it) or Take
// theirs (with JavaScript, their text into the form at once; without, a submit that does it).
import type { MouseEvent } from 'react';
import { formatUtc } from '../../../lib/content/dates';
import type { Conflict, EditorFormValues } from '../../../lib/editor/forms';
import { FieldsDiff } from '../word-diff';

export function ConflictPanel({
  conflict,
  values,
  onKeepMine,
  onTakeTheirs,
}: {
  conflict: Conflict;
  values: EditorFormValues;
  onKeepMine: () => void;
  onTakeTheirs: (event: MouseEvent<HTMLButtonElement>) => void;
}) {
  return (
    <section className="conflict" aria-label="Saved meanwhile">
      <h2>
        Saved meanwhile{conflict.savedBy ? ` by ${conflict.savedBy}` : ''} at{' '}
        {formatUtc(conflict.savedAt)}
      </h2>
      <FieldsDiff
        before={conflict}
        after={values}
        beforeLabel="their version"
        afterLabel="yours (in the form)"
      />
      <p className="conflict-actions">
        <button type="submit" name="intent" value="save" className="primary" onClick={onKeepMine}>
          Keep mine
        </button>{' '}
        <button type="submit" name="intent" value="take-theirs" onClick={onTakeTheirs}>
          Take theirs
        </button>
      </p>
    </section>
  );
}
