import { useEffectEvent, useLayoutEffect, useState } from 'react';
import { filesOfDroppedFolder } from './folder-files';

function carriesFiles(event: DragEvent): boolean {
  return event.dataTransfer?.types.includes('Files') ?? false;
}

/**
 * A drag over the window sends `dragover` every few hundred milliseconds, even while the pointer
 * rests; this long without one, the drag is gone (ended outside the window, cancelled, or a
 * `dragleave` the browser never sent) and the overlay goes.
 */
export const DRAG_SILENCE_MS = 1_000;

/**
 * Files dropped anywhere on the window, with the tab they were dropped on (its data-tab-id), if
 * any: dropped on a tab, a file is compared with it. Returns whether files are being dragged over
 * the window now (for the overlay): only between the drag's arrival and its drop or departure, so
 * the overlay never outstays a drag. The page never navigates to a dropped file.
 */
export function useFileDrop(
  onFiles: (files: File[], onTabId: string | null) => void,
  /** A dropped folder's files; `unreadable` when it could not be listed. */
  onFolder: (files: File[], folderName: string, unreadable?: boolean) => void,
): boolean {
  const [dragging, setDragging] = useState(false);
  const deliver = useEffectEvent(onFiles);
  const deliverFolder = useEffectEvent(onFolder);

  // A layout effect, so the window takes drops as soon as the page says it is ready.
  useLayoutEffect(() => {
    // dragenter/dragleave fire for every child crossed; count them to know when we left.
    let depth = 0;
    let silence: ReturnType<typeof setTimeout> | undefined;
    const stop = (): void => {
      depth = 0;
      clearTimeout(silence);
      setDragging(false);
    };
    const stillDragging = (): void => {
      clearTimeout(silence);
      silence = setTimeout(stop, DRAG_SILENCE_MS);
      setDragging(true);
    };
    const enter = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      depth += 1;
      stillDragging();
    };
    const over = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
      stillDragging();
    };
    const leave = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) stop();
    };
    const drop = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      stop();
      // A dropped folder is a folder of ranks: its snapshot files are read from its entry (the
      // folder's own File is not a file one can read). Entries must be taken now, during the drop.
      const files: File[] = [];
      const folders: FileSystemDirectoryEntry[] = [];
      for (const item of event.dataTransfer?.items ?? []) {
        if (item.kind !== 'file') continue;
        const entry = item.webkitGetAsEntry();
        if (entry?.isDirectory === true) folders.push(entry as FileSystemDirectoryEntry);
        else {
          const file = item.getAsFile();
          if (file !== null) files.push(file);
        }
      }
      const tab = event.target instanceof Element ? event.target.closest('[data-tab-id]') : null;
      if (files.length > 0) deliver(files, tab?.getAttribute('data-tab-id') ?? null);
      for (const folder of folders)
        filesOfDroppedFolder(folder).then(
          (folderFiles) => deliverFolder(folderFiles, folder.name),
          () => deliverFolder([], folder.name, true),
        );
    };
    // No drag is under way while the pointer moves (a drag sends no pointer events).
    const pointerMoved = (): void => {
      if (depth > 0) stop();
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    window.addEventListener('dragend', stop);
    window.addEventListener('pointermove', pointerMoved);
    return () => {
      clearTimeout(silence);
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
      window.removeEventListener('dragend', stop);
      window.removeEventListener('pointermove', pointerMoved);
    };
  }, []);

  return dragging;
}
