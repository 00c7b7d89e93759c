'use client';
// Deletes this browser's copies of pages' shared documents (IndexedDB, decision record 0051)
// when the person signs out through Folio's sign-out form: they hold draft text. Rendered inside
// that form; renders nothing visible. Without JavaScript there are no copies to delete.
// The form is on every screen of a signed-in editor, so its mount also tells this browser's
// other tabs that the person is signed in: a tab paused by a sign-out here waits for that
// rather than trying (and failing) a connection every half minute.
import { useEffect, useRef } from 'react';
import { forgetAllCopies, noteSignedIn } from './editor/local-copy';

export function ForgetLocalCopies() {
  const mark = useRef<HTMLSpanElement>(null);
  useEffect(() => noteSignedIn(), []);
  useEffect(() => {
    const form = mark.current?.closest('form');
    if (!form) return;
    // Started at the submit, before the action's request: the deletions are under way while
    // the server signs the person out (IndexedDB finishes them after the page has gone).
    const forget = () => {
      void forgetAllCopies().catch(() => undefined);
    };
    form.addEventListener('submit', forget);
    return () => form.removeEventListener('submit', forget);
  }, []);
  return <span ref={mark} hidden />;
}
