// The version saved meanwhile, merged with the editor's own (docs/decisions/0031): their
// changes to other lines are kept with the editor's either way; where both changed the same
// lines, each conflict asks theirs, mine or both (radio buttons: a plain form without
// JavaScript), and Save applies the choices. Take theirs puts their whole version in the form
// (with JavaScript at once; without, a submit that does it).
import type { MouseEvent } from 'react';
import { MERGE_CHOICES, type MergeChoice } from '../../../lib/content/merge';
import type { Conflict, EditorFormValues } from '../../../lib/editor/forms';
import { LocalTime } from '../local-time';
import { FieldsDiff, ParagraphDiff } from '../word-diff';

const CHOICE_WORDS: Record<MergeChoice, string> = {
  mine: 'Mine',
  theirs: 'Theirs',
  both: 'Both (mine, then theirs)',
};

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
  const conflicts = conflict.conflicts;
  return (
    <section className="conflict" aria-label="Saved meanwhile">
      <h2>
        Saved meanwhile{conflict.savedBy ? ` by ${conflict.savedBy}` : ''} at{' '}
        <LocalTime iso={conflict.savedAt} />
      </h2>
      {/* Which version this form has seen: a save now applies the choices below to it. */}
      <input type="hidden" name="seenVersion" value={String(conflict.version)} />
      <input type="hidden" name="mergeKey" value={conflict.key ?? ''} />
      {conflicts ? (
        <>
          <p>
            Their changes to other lines are kept with yours.{' '}
            {conflicts.length === 0
              ? 'No place was changed by both of you: saving keeps your text and their changes.'
              : conflicts.length === 1
                ? 'One place was changed by both of you: choose what it says.'
                : `${conflicts.length} places were changed by both of you: choose what each says.`}
          </p>
          {conflicts.map((each, index) => (
            <fieldset
              // biome-ignore lint/suspicious/noArrayIndexKey: the conflicts are a fixed sequence
              key={index}
              className="diff-field"
              aria-label={`${each.field} compared${conflicts.length > 1 ? ` (${index + 1} of ${conflicts.length})` : ''}`}
            >
              <legend>
                {each.field[0]?.toUpperCase()}
                {each.field.slice(1)}: theirs struck through, yours marked
              </legend>
              <div className="diff-text">
                <ParagraphDiff before={each.theirs} after={each.mine} fold={false} />
              </div>
              <p className="conflict-choices">
                {MERGE_CHOICES.map((choice) => (
                  <label key={choice}>
                    <input
                      type="radio"
                      name={`choice-${index}`}
                      value={choice}
                      defaultChecked={choice === 'mine'}
                    />{' '}
                    {CHOICE_WORDS[choice]}
                  </label>
                ))}
              </p>
            </fieldset>
          ))}
        </>
      ) : (
        <FieldsDiff
          before={conflict}
          after={values}
          beforeLabel="their version"
          afterLabel="yours (in the form)"
        />
      )}
      <p className="conflict-actions">
        <button type="submit" name="intent" value="save" className="primary" onClick={onKeepMine}>
          {conflicts?.length === 0 ? 'Save with their changes' : 'Save with these choices'}
        </button>{' '}
        <button type="submit" name="intent" value="take-theirs" onClick={onTakeTheirs}>
          Take theirs
        </button>
      </p>
    </section>
  );
}
