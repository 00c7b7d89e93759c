// The body's toolbar once the page is hydrated: Markdown around the selection, an image from
// the media library or this computer, and the Markdown guide. Without JavaScript, links to the
// guide and the library in its place.
import { IMAGE_ACCEPT, imageMarkdown } from '../../../lib/media/media-refs';
import type { Wrap } from './use-body-text';

/** An image the editor can insert (from the media library). */
export type LibraryImage = { hash: string; alt: string; thumbnail: string };

const TOOLBAR: { label: string; title: string; wrap: Wrap }[] = [
  { label: 'B', title: 'Bold', wrap: { before: '**', after: '**', placeholder: 'bold text' } },
  { label: 'I', title: 'Italic', wrap: { before: '_', after: '_', placeholder: 'italic text' } },
  {
    label: 'Link',
    title: 'Link',
    wrap: { before: '[', after: '](https://)', placeholder: 'link text' },
  },
  {
    label: 'H2',
    title: 'Heading',
    wrap: { before: '## ', after: '', placeholder: 'Heading', line: true },
  },
  {
    label: '• List',
    title: 'List',
    wrap: { before: '- ', after: '', placeholder: 'item', line: true },
  },
  { label: '</>', title: 'Code', wrap: { before: '`', after: '`', placeholder: 'code' } },
];

export function EditorToolbar({
  enhanced,
  images,
  onWrap,
  onPickImage,
}: {
  enhanced: boolean;
  images: readonly LibraryImage[];
  onWrap: (wrap: Wrap) => void;
  /** A file picked from this computer, for the upload panel. */
  onPickImage: (file: File) => void;
}) {
  if (!enhanced)
    return (
      <p className="toolbar-links">
        <a href="/preview/writing-in-markdown">Markdown guide</a>{' '}
        <a href="/preview?media">Media library</a> (upload an image there, then paste its Markdown
        here)
      </p>
    );
  return (
    <div className="toolbar" role="toolbar" aria-label="Formatting">
      {TOOLBAR.map(({ label, title, wrap }) => (
        <button
          key={title}
          type="button"
          title={title}
          aria-label={title}
          onClick={() => onWrap(wrap)}
        >
          {label}
        </button>
      ))}
      <details className="image-menu">
        <summary title="Insert an image from the media library">Image</summary>
        <div className="image-choices">
          {images.length === 0 ? <p>No images yet.</p> : null}
          {images.map((image) => (
            <button
              key={image.hash}
              type="button"
              title={image.alt}
              aria-label={`Insert ${image.alt}`}
              onClick={(event) => {
                event.currentTarget.closest('details')?.removeAttribute('open');
                onWrap({
                  before: `\n${imageMarkdown(image.hash, image.alt)}\n`,
                  after: '',
                  placeholder: '',
                });
              }}
            >
              <img src={image.thumbnail} alt="" width={96} height={72} loading="lazy" />
            </button>
          ))}
          <label className="image-pick">
            Upload from this computer…
            <input
              type="file"
              accept={IMAGE_ACCEPT}
              className="visually-hidden"
              onChange={(event) => {
                const file = event.currentTarget.files?.[0];
                event.currentTarget.value = '';
                event.currentTarget.closest('details')?.removeAttribute('open');
                if (file) onPickImage(file);
              }}
            />
          </label>
          <a href="/preview?media" target="_blank" rel="noreferrer">
            Media library
          </a>
        </div>
      </details>
      <a href="/preview/writing-in-markdown" target="_blank" rel="noreferrer">
        Markdown guide
      </a>
    </div>
  );
}
