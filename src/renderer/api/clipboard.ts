// Writes text to the clipboard where the page may: a browser allows it in a secure context
// (https, localhost) after a click; Electron's session grants our page this one permission. A
// page from file:// or a refused permission has no clipboard: the caller then shows the text
// selected for the user to copy by hand.

/** The part of navigator.clipboard this needs. */
export interface ClipboardWriter {
  writeText(text: string): Promise<void>;
}

/** True once the text is on the clipboard; false where the page may not write it. */
export async function copyToClipboard(
  text: string,
  clipboard: ClipboardWriter | null = globalThis.navigator?.clipboard ?? null,
): Promise<boolean> {
  if (clipboard === null || typeof clipboard.writeText !== 'function') return false;
  try {
    await clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
