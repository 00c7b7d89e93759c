// Owns images dropped anywhere on the editor's page: they go to the upload panel, since a file
// let go beside the text box must not replace the page (and whatever was typed) with the file
// itself. Returns whether files are being dragged over the window (the text box shows it).
// Also says which pasted data is an image to upload (the text box and the editor both ask).
import { useEffect, useState } from 'react';

export function useImageDrop(enhanced: boolean, offerImage: (file: File, others?: number) => void) {
  const [dragging, setDragging] = useState(false);
  useEffect(() => {
    if (!enhanced) return;
    const carriesFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') ?? false;
    const over = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
      setDragging(true);
    };
    const leave = (event: DragEvent) => {
      // Off the window altogether (moving between elements names the next one).
      if (event.relatedTarget === null) setDragging(false);
    };
    const drop = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      setDragging(false);
      const files = event.dataTransfer?.files;
      const file = files?.[0];
      if (file) offerImage(file, (files?.length ?? 1) - 1);
    };
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, [enhanced, offerImage]);
  return dragging;
}

/**
 * The image a paste carries, if it is one to upload: a copied screenshot or picture. Text copied
 * from a word processor comes with a picture of itself: the text is what was meant.
 */
export function pastedImage(data: DataTransfer | null): File | null {
  if (!data) return null;
  const file = [...data.files].find((f) => f.type.startsWith('image/'));
  if (!file || data.getData('text/plain').trim() !== '') return null;
  return file;
}
