// The body's toolbar once the page is hydrated: Markdown around the selection, a link (the
// dialog), an image from the media library or this computer, and the Markdown guide. Each is
// one undo step in the editor (use-body-text.ts). Without JavaScript, links to the guide and
// the library in its place.
import { EDITOR_HELP } from '../../../lib/http/routes';
import { IMAGE_ACCEPT, imageMarkdown } from '../../../lib/media/media-refs';
import { WRAPS, type Wrap } from './markdown-edits';

/** An image the editor can insert (from the media library). */
export type LibraryImage = { hash: string; alt: string; thumbnail: string };

// The shortcut is in the title (a tooltip) and in aria-keyshortcuts (read out with the name).
const TOOLBAR: { label: string; title: string; wrap: Wrap; keys?: string }[] = [
  { label: 'B', title: 'Bold', wrap: WRAPS.bold, keys: 'Control+B' },
  { label: 'I', title: 'Italic', wrap: WRAPS.italic, keys: 'Control+I' },
  // The name holds the visible text (WCAG 2.5.3, label in name): "H2 heading", not "Heading".
  { label: 'H2', title: 'H2 heading', wrap: WRAPS.heading },
  { label: '• List', title: 'List', wrap: WRAPS.list },
  { label: '❝ Quote', title: 'Quote', wrap: WRAPS.quote },
  { label: '</>', title: 'Code', wrap: WRAPS.code },
];

export function EditorToolbar({
  enhanced,
  images,
  onWrap,
  onLink,
  onPickImage,
}: {
  enhanced: boolean;
  images: readonly LibraryImage[];
  onWrap: (wrap: Wrap) => void;
  /** Link: the dialog that asks for the address. */
  onLink: () => void;
  /** A file picked from this computer, for the upload panel. */
  onPickImage: (file: File) => void;
}) {
  if (!enhanced)
    return (
      <p className="toolbar-links">
        <a href={EDITOR_HELP}>Markdown guide</a> <a href="/preview?media">Media library</a> (upload
        an image there, then paste its Markdown here)
      </p>
    );
  return (
    <div className="toolbar" role="toolbar" aria-label="Formatting">
      {TOOLBAR.map(({ label, title, wrap, keys }) => (
        <button
          key={title}
          type="button"
          title={keys ? `${title} (${keys.replace('Control', 'Ctrl')})` : title}
          aria-label={title}
          aria-keyshortcuts={keys}
          onClick={() => onWrap(wrap)}
        >
          {label}
        </button>
      ))}
      <button
        type="button"
        title="Link (Ctrl+K)"
        aria-label="Link"
        aria-keyshortcuts="Control+K"
        onClick={onLink}
      >
        Link
      </button>
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
      <a href={EDITOR_HELP} target="_blank" rel="noreferrer">
        Markdown guide
      </a>
    </div>
  );
}
