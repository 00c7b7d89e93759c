'use client';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { uploadMedia } from '../../lib/editor/actions/media';
import {
  ALT_NEEDED_MESSAGE,
  imageMarkdown,
  uploadTooLargeMessage,
} from '../../lib/media/media-refs';

/**
 * An image the editor dropped, pasted or picked, waiting for its alt text: uploaded to the
 * media library when the editor says so, then inserted where the caret was. Nothing is sent
 * before the alt text is written, and nothing typed is lost on a refusal: the panel stays,
 * with the reason and the alt text, until it is uploaded or cancelled. No thumbnail: the
 * page's CSP allows no `blob:` images, and the editor has the picture in front of them.
 */
export function EditorImageUpload({
  file,
  others,
  maxMb,
  onUploaded,
  onCancel,
}: {
  file: File;
  /** Files dropped with it and left out: one image at a time. */
  others: number;
  maxMb: number;
  /** The Markdown to insert: the image with the alt text typed here. */
  onUploaded: (markdown: string) => void;
  onCancel: () => void;
}) {
  const [alt, setAlt] = useState('');
  const [busy, setBusy] = useState(false);
  // Over the limit is said at once: the server would refuse it unread.
  const tooLarge = file.size > maxMb * 1024 * 1024 ? uploadTooLargeMessage(file.size, maxMb) : null;
  // A refusal of this file (no alt text, the server's answer); another file starts afresh.
  const [refused, setRefused] = useState<string | null>(null);
  const error = tooLarge ?? refused;
  const altInput = useRef<HTMLInputElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs for each file offered
  useEffect(() => {
    setRefused(null);
    altInput.current?.focus();
  }, [file]);

  const upload = async () => {
    if (busy || tooLarge) return;
    if (alt.trim() === '') {
      setRefused(ALT_NEEDED_MESSAGE);
      altInput.current?.focus();
      return;
    }
    const form = new FormData();
    form.set('file', file);
    form.set('alt', alt);
    setBusy(true);
    setRefused(null);
    try {
      const answer = await uploadMedia({}, form);
      // The alt text typed here, even when the library had the image with other words: alt
      // text belongs to each use of an image (Markdown keeps it with the use).
      if (answer.uploaded) onUploaded(imageMarkdown(answer.uploaded.hash, alt));
      else setRefused(answer.error ?? 'Nothing was uploaded.');
    } catch {
      setRefused('Nothing was uploaded: Folio could not be reached. Try again.');
    } finally {
      setBusy(false);
    }
  };

  // Inside the editor's form: Enter uploads (never submits the page), Escape cancels.
  const keyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      void upload();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
    }
  };

  return (
    <fieldset className="editor-upload" aria-busy={busy}>
      <legend>
        Image to upload: <span className="file-name">{file.name || 'pasted image'}</span> (
        {formatSize(file.size)})
        {others > 0
          ? `; ${others === 1 ? 'the other file was' : `the other ${others} files were`} left out: one image at a time`
          : ''}
      </legend>
      <label>
        Alt text: what the image shows, for people who cannot see it
        <input
          ref={altInput}
          type="text"
          value={alt}
          maxLength={300}
          onChange={(event) => setAlt(event.target.value)}
          onKeyDown={keyDown}
          aria-invalid={error === ALT_NEEDED_MESSAGE ? true : undefined}
        />
      </label>
      <p className="editor-upload-buttons">
        <button
          type="button"
          className="primary"
          onClick={() => void upload()}
          disabled={busy || tooLarge !== null}
        >
          {busy ? 'Uploading…' : 'Upload and insert'}
        </button>{' '}
        <button type="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </p>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** Rounded up, as the refusal of a file over the limit rounds it (uploadTooLargeMessage). */
function formatSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.ceil(bytes / 1024))} KB`;
  return `${(Math.ceil((bytes / 1024 / 1024) * 10) / 10).toFixed(1)} MB`;
}
