'use client';
// A command that cannot be taken back (delete, discard, unpublish) asks first. Without
// JavaScript the link opens a confirmation page (?confirm=…); with it, the same question and
// the same form open in a dialog over the page.
import { type ReactNode, useRef } from 'react';

export function ConfirmCommand({
  href,
  label,
  question,
  children,
}: {
  /** The confirmation page, for browsers without JavaScript. */
  href: string;
  label: string;
  question: string;
  /** The command's form, shown in the dialog. */
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <a
        href={href}
        className="button"
        onClick={(event) => {
          if (!dialog.current?.showModal) return;
          event.preventDefault();
          dialog.current.showModal();
        }}
      >
        {label}
      </a>
      <dialog ref={dialog} className="confirm-dialog" aria-label={label}>
        <p>{question}</p>
        <div className="confirm-actions">
          {children}
          <button type="button" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
        </div>
      </dialog>
    </>
  );
}
