'use client';
import { type FormEvent, useActionState, useState } from 'react';
import { uploadMedia } from '../../lib/editor/actions/media';
import type { UploadState } from '../../lib/editor/forms';
import { IMAGE_ACCEPT, uploadTooLargeMessage } from '../../lib/media/media-refs';

/**
 * The media library's upload: a file (picked, or dropped on the field) and its alt text.
 * Without JavaScript it is a plain multipart form; the answer is the same page with the
 * image listed and the Markdown that shows it.
 */
export function UploadForm({ maxMb }: { maxMb: number }) {
  const [answer, action, pending] = useActionState<UploadState, FormData>(uploadMedia, {});
  const state = answer ?? {};
  const [copied, setCopied] = useState(false);
  // A file over the limit is refused here, before it is sent: the server would refuse it
  // unread, and the answer to a refused request is no answer the page can show.
  const [tooLarge, setTooLarge] = useState<string | null>(null);
  const checkSize = (file: File | undefined) => {
    const problem =
      file && file.size > maxMb * 1024 * 1024 ? uploadTooLargeMessage(file.size, maxMb) : null;
    setTooLarge(problem);
    return problem;
  };
  const refuseTooLarge = (event: FormEvent<HTMLFormElement>) => {
    const input = event.currentTarget.elements.namedItem('file') as HTMLInputElement | null;
    if (checkSize(input?.files?.[0])) event.preventDefault();
  };
  const error = tooLarge ?? state.error;
  return (
    <form
      action={action}
      onSubmit={refuseTooLarge}
      className="upload-form"
      encType="multipart/form-data"
    >
      <label className="drop-zone">
        Image (JPEG, PNG, WebP, AVIF or GIF, up to {maxMb} MB): choose one or drop it here
        <input
          type="file"
          name="file"
          accept={IMAGE_ACCEPT}
          required
          onChange={(event) => checkSize(event.currentTarget.files?.[0])}
        />
      </label>
      <label>
        Alt text: what the image shows, for people who cannot see it
        <input
          type="text"
          name="alt"
          required
          maxLength={300}
          defaultValue={state.alt ?? ''}
          key={state.uploaded ? state.uploaded.hash : 'typing'}
        />
      </label>
      <button type="submit" className="primary" disabled={pending}>
        {pending ? 'Uploading…' : 'Upload'}
      </button>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {state.uploaded && !tooLarge ? (
        <output className="uploaded">
          <img src={state.uploaded.src} alt={state.uploaded.alt} width={120} />
          <span>
            {state.uploaded.existing
              ? 'This image was already in the library, with the alt text shown below it in the list (edit it there). '
              : 'Uploaded. '}
            Put it in a page with{' '}
            <code className="markdown-snippet">{state.uploaded.markdown}</code>{' '}
            <button
              type="button"
              onClick={() => {
                void navigator.clipboard
                  ?.writeText(state.uploaded?.markdown ?? '')
                  .then(() => setCopied(true));
              }}
            >
              {copied ? 'Copied' : 'Copy'}
            </button>
          </span>
        </output>
      ) : null}
    </form>
  );
}
