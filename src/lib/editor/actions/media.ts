'use server';
// Owns the media library's actions: upload an image (upload-form.tsx, the editor's Image menu)
// and change or delete one (media-item-form.tsx). The bytes decide what an image is.
import { unstable_redirect as redirect } from 'waku/router/server';
import { MEDIA_LIBRARY } from '../../http/routes';
import {
  ALT_MAX,
  altProblem,
  MediaInSettingsError,
  MediaIsPhotoError,
  mediaStore,
  normaliseAlt,
  processImage,
} from '../../media/media';
import { imageMarkdown, uploadTooLargeMessage } from '../../media/media-refs';
import { getEnv } from '../../runtime/env';
import { rerenderActionRoute } from '../../waku/rerender';
import { editorForm, readForm, refuseForm } from '../action';
import {
  type MediaChangeState,
  mediaChangeSchema,
  type UploadState,
  uploadFormSchema,
} from '../forms';

/** The words for a refusal: an ended session as it is, a busy database with what was not done. */
const nothingDone =
  (what: string) =>
  ({ alt }: { alt: string }, { reason, message }: { reason: string; message: string }) => ({
    error: reason === 'signed-out' ? message : `${what}: ${message}`,
    alt,
  });

/**
 * Uploads an image (the media library's form, with or without JavaScript): the bytes decide
 * what it is; variants are made once, here; alt text is required. Answers with the Markdown
 * that shows it, or why not, keeping the alt text typed.
 */
export const uploadMedia = editorForm({
  read: (input) => {
    const { alt, file } = readForm(uploadFormSchema, input);
    return { alt: alt.slice(0, ALT_MAX * 2), file };
  },
  refused: nothingDone('Nothing was uploaded'),
  may: () => [{ action: 'media.upload' }],
  run: async ({ alt, file }, editor): Promise<UploadState> => {
    const maxMb = getEnv().MEDIA_MAX_MB;
    const problem =
      !(file instanceof File) || file.size === 0
        ? 'Choose an image file to upload.'
        : file.size > maxMb * 1024 * 1024
          ? uploadTooLargeMessage(file.size, maxMb)
          : altProblem(alt);
    if (problem || !(file instanceof File)) {
      refuseForm(problem?.includes(' MB') ? 413 : 422);
      return { error: problem ?? 'Choose an image file to upload.', alt };
    }
    const image = await processImage(new Uint8Array(await file.arrayBuffer()));
    const kept = await mediaStore().add(image, {
      alt,
      // A file part may come without a name (a hand-made request): then it is "image".
      filename: typeof file.name === 'string' ? file.name : '',
      editor: editor.editor.email,
    });
    rerenderActionRoute();
    return {
      uploaded: {
        hash: kept.hash,
        alt: kept.alt,
        src: kept.src,
        markdown: imageMarkdown(kept.hash, kept.alt),
        // The same bytes uploaded before are that image, with the alt text it was given then.
        existing: kept.alt !== normaliseAlt(alt),
      },
    };
  },
  rejected: ({ alt }, error): UploadState => {
    refuseForm(422);
    return { error: error.message, alt };
  },
});

/**
 * The media library's per-image commands: new alt text, or delete (refused while in use). A
 * refused alt text answers with the form, the typed text and why; the rest redirect.
 */
export const changeMedia = editorForm({
  read: (input) => {
    const { hash, intent, alt } = readForm(mediaChangeSchema, input);
    return { hash, deleting: intent === 'delete', alt: alt.slice(0, ALT_MAX * 2) };
  },
  refused: nothingDone('Nothing was changed'),
  may: () => [{ action: 'media.edit' }],
  run: async ({ hash, deleting, alt }): Promise<MediaChangeState> => {
    if (deleting) await mediaStore().remove(hash);
    else await mediaStore().setAlt(hash, alt);
    // Fixed notices, never words from the URL: a crafted link must not put text in this page.
    redirect(`${MEDIA_LIBRARY}&notice=${deleting ? 'media-deleted' : 'media-saved'}`, 303);
  },
  rejected: ({ deleting, alt }, error): MediaChangeState => {
    if (error.code === 'not-found') redirect(`${MEDIA_LIBRARY}&notice=media-gone`, 303);
    if (deleting && error instanceof MediaInSettingsError)
      redirect(`${MEDIA_LIBRARY}&notice=media-in-settings`, 303);
    if (deleting && error instanceof MediaIsPhotoError)
      redirect(`${MEDIA_LIBRARY}&notice=media-is-photo`, 303);
    if (deleting) redirect(`${MEDIA_LIBRARY}&notice=media-in-use`, 303);
    refuseForm(422);
    return { error: error.message, alt };
  },
});
