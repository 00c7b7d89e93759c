'use client';
// The editor banner's Publish. It submits the editor's form: what is on screen is saved and
// published, never an older text. A published page with no draft has nothing to publish, so it
// is offered there only once the editor holds text not saved yet (with JavaScript); an
// autosave then gives the page a draft, and the server's banner offers it from then on.
import { EDITOR_FORM_ID } from '../../lib/editor/forms';
import { useUnsavedText } from './editor/unsaved-text';

export function EditorPublishButton({ draft }: { draft: boolean }) {
  const unsaved = useUnsavedText();
  if (!draft && !unsaved) return null;
  return (
    <button type="submit" form={EDITOR_FORM_ID} name="intent" value="publish" className="primary">
      Publish
    </button>
  );
}
