'use client';
import { useActionState, useState } from 'react';
import { uploadMedia } from './actions';
import type { UploadState } from './forms';

const ACCEPT = 'image/jpeg,image/png,image/webp,image/avif,image/gif';

/**
 * The media library's upload: a file (picked, or dropped on the field) and its alt text.
 * Without JavaScript it is a plain multipart form; the answer is the same page with the
 * image listed and the Markdown that shows it.
 */
export function UploadForm({ maxMb }: { maxMb: number }) {
  const [answer, action, pending] = useActionState<UploadState, FormData>(uploadMedia, {});
  const state = answer ?? {};
  const [copied, setCopied] = useState(false);
  return (
    <form action={action} className="upload-form" encType="multipart/form-data">
      <label className="drop-zone">
        Image (JPEG, PNG, WebP, AVIF or GIF, up to {maxMb} MB): choose one or drop it here
        <input type="file" name="file" accept={ACCEPT} required />
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
      {state.error ? (
        <p className="form-error" role="alert">
          {state.error}
        </p>
      ) : null}
      {state.uploaded ? (
        <output className="uploaded">
          <img src={state.uploaded.src} alt={state.uploaded.alt} width={120} />
          <span>
            Uploaded. Put it in a page with{' '}
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
