// Owns Ctrl+S / Cmd+S: it presses the form's Save (a rename too) instead of letting the
// browser save the page's HTML to disk.
import { type RefObject, useEffect } from 'react';

export function useSaveShortcut(form: RefObject<HTMLFormElement | null>) {
  useEffect(() => {
    const keydown = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        event.preventDefault();
        const button = form.current?.querySelector<HTMLButtonElement>('button[value="save"]');
        if (button) form.current?.requestSubmit(button);
      }
    };
    window.addEventListener('keydown', keydown);
    return () => window.removeEventListener('keydown', keydown);
  }, [form]);
}
