// The snapshot an `allocscope html` page carries (src/shared/report/html-embedding.ts says how):
// its base64 chunks decoded one at a time into bytes, never the whole file as one string, and
// handed to the page's decoder as a File, as if the user had picked it: gzip, progress, notices
// and the tab all work as for any file. A page without one is the plain web build.

import {
  CHUNK_ATTRIBUTE,
  CHUNK_TYPE,
  END_ELEMENT_ID,
  HEADER_ELEMENT_ID,
  embeddedEndSchema,
  embeddedHeaderSchema,
  type EmbeddedHeader,
} from '@shared/report/html-embedding';

export type EmbeddedSnapshot =
  | { readonly kind: 'file'; readonly file: File; readonly header: EmbeddedHeader }
  /** The page carries a snapshot it cannot give back whole: one line for the notice. */
  | { readonly kind: 'broken'; readonly fileName: string; readonly message: string };

/**
 * The page's snapshot as a File, or why it cannot be had. Yields to the page between chunks
 * (the decoding is the main thread's), and drops each chunk's element once read.
 */
export async function readEmbeddedSnapshot(document: Document): Promise<EmbeddedSnapshot | null> {
  const headerElement = document.getElementById(HEADER_ELEMENT_ID);
  if (headerElement === null) return null;
  const header = embeddedHeaderSchema.safeParse(parseJson(headerElement.textContent));
  if (!header.success)
    return broken(
      'the page',
      'its snapshot header is damaged: the page was changed after it was written',
    );
  const { fileName } = header.data;
  const end = embeddedEndSchema.safeParse(
    parseJson(document.getElementById(END_ELEMENT_ID)?.textContent ?? null),
  );
  const elements = [
    ...document.querySelectorAll<HTMLScriptElement>(
      `script[type="${CHUNK_TYPE}"][${CHUNK_ATTRIBUTE}]`,
    ),
  ];
  if (!end.success)
    return broken(
      fileName,
      `this page is cut short (a partial download or attachment?): it holds ${elements.length} ` +
        'pieces of the snapshot and not its end; ask for the whole file again',
    );
  if (elements.length !== end.data.chunks)
    return broken(
      fileName,
      `this page holds ${elements.length} of the ${end.data.chunks} pieces of its snapshot: it was changed after it was written`,
    );
  const parts: Uint8Array<ArrayBuffer>[] = [];
  let bytes = 0;
  for (const [index, element] of elements.entries()) {
    if (element.getAttribute(CHUNK_ATTRIBUTE) !== String(index))
      return broken(fileName, `the pieces of its snapshot are out of order at piece ${index}`);
    const part = bytesOfBase64(element.textContent);
    if (part === null) return broken(fileName, `piece ${index} of its snapshot is not base64`);
    parts.push(part);
    bytes += part.length;
    element.remove();
    // Let the page paint between pieces: a large snapshot is tens of them.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  if (bytes !== end.data.embeddedBytes)
    return broken(
      fileName,
      `its snapshot holds ${bytes} bytes where the page says ${end.data.embeddedBytes}`,
    );
  return { kind: 'file', file: new File(parts, fileName), header: header.data };
}

function broken(fileName: string, message: string): EmbeddedSnapshot {
  return { kind: 'broken', fileName, message };
}

function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** The platform's base64 decoder where there is one (Chromium 140+, Firefox 133+), else atob. */
type WithFromBase64 = typeof Uint8Array & {
  fromBase64?: (text: string) => Uint8Array<ArrayBuffer>;
};

function bytesOfBase64(text: string | null): Uint8Array<ArrayBuffer> | null {
  if (text === null) return null;
  const trimmed = text.trim();
  try {
    const fromBase64 = (Uint8Array as WithFromBase64).fromBase64;
    if (fromBase64 !== undefined) return fromBase64.call(Uint8Array, trimmed);
    const binary = atob(trimmed);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}
