'use client';
// The words of a save merged with another version saved meanwhile (docs/decisions/0031), its
// time in the editor's zone like every other time on the screen (issue 26: it said UTC beside a
// status line in Berlin time).
import type { MergedNote } from '../../../lib/editor/forms';
import { LocalTime } from '../local-time';

export function MergedNoteText({ note }: { note: MergedNote }) {
  return (
    <>
      Merged with changes saved at <LocalTime iso={note.at} />
      {note.who}: both are kept.
      {note.publishHeld ? ' Not published yet: check the merged text, then publish.' : ''}
    </>
  );
}
