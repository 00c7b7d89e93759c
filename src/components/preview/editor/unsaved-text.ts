// Owns one fact the editor shares with the banner above it: whether the text on screen differs
// from what the server last saved. The banner is rendered by the server, apart from the
// editor's tree, so it cannot be handed the editor's state: it reads this instead, to offer
// Publish for a published page once something is typed (editor-publish-button.tsx).
import { useSyncExternalStore } from 'react';

let unsaved = false;
const listeners = new Set<() => void>();

/** Called by the editor (use-editor-state.ts) whenever the answer changes, false as it goes. */
export function reportUnsavedText(value: boolean): void {
  if (value === unsaved) return;
  unsaved = value;
  for (const listener of listeners) listener();
}

/** Whether the editor on this screen holds text not saved yet (false on the server). */
export function useUnsavedText(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => unsaved,
    () => false,
  );
}
