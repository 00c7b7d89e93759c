// Owns images dropped anywhere on the editor's page: they go to the upload panel, since a file
// let go beside the text box must not replace the page (and whatever was typed) with the file
// itself. Returns whether files are being dragged over the window (the text box shows it).
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
