// Writes the one-file page of `allocscope html`: the viewer template with the snapshot inside
// (src/shared/report/html-embedding.ts says how), streamed from the file to the page a chunk at a
// time: a 500 MB snapshot is never one buffer, nor one string (V8's limit is ~512 MiB).

import { createHash } from 'node:crypto';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import {
  CHUNK_ATTRIBUTE,
  CHUNK_BYTES,
  CHUNK_TYPE,
  EMBEDDED_SNAPSHOT_SCHEMA,
  END_ELEMENT_ID,
  HEADER_ELEMENT_ID,
  scriptSafeJson,
  type EmbeddedEnd,
  type EmbeddedHeader,
} from '@shared/report/html-embedding';

const BODY_END = '</body>';
const TEMPLATE_TITLE = /<title>[^<]*<\/title>/;

/** Text safe in HTML's text and attribute values: markup escaped, control characters replaced. */
export function escapeHtml(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- a file name's control characters, on purpose
      .replace(/[\u0000-\u001f\u007f-\u009f]/g, '\uFFFD')
      .replace(
        /[&<>"']/g,
        (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!,
      )
  );
}

/** The template split where the snapshot goes (before </body>), titled with the file's name. */
export function pageAround(template: string, fileName: string): [string, string] {
  const at = template.lastIndexOf(BODY_END);
  if (at < 0 || !TEMPLATE_TITLE.test(template))
    throw new Error('the viewer template has no <title> or no </body>');
  const titled = template.replace(
    TEMPLATE_TITLE,
    () => `<title>${escapeHtml(fileName)} · allocscope</title>`,
  );
  const titledAt = titled.lastIndexOf(BODY_END);
  return [titled.slice(0, titledAt), titled.slice(titledAt)];
}

function dataElement(id: string, value: unknown): string {
  return `<script type="application/json" id="${id}">${scriptSafeJson(value)}</script>\n`;
}

function chunkElement(index: number, bytes: Uint8Array): string {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  return `<script type="${CHUNK_TYPE}" ${CHUNK_ATTRIBUTE}="${index}">${text}</script>\n`;
}

export interface HtmlPageInput {
  readonly template: string;
  /** The snapshot file's bytes, as read. */
  readonly bytes: AsyncIterable<Uint8Array>;
  readonly header: Omit<EmbeddedHeader, 'schema'>;
  /** Where the page goes (a file's write stream). */
  readonly out: Writable;
}

/** Streams the page out; says what it carries. Fails (and stops writing) on any read error. */
export async function writeHtmlPage(input: HtmlPageInput): Promise<EmbeddedEnd> {
  const [before, after] = pageAround(input.template, input.header.fileName);
  const hash = createHash('sha256');
  const source = input.bytes[Symbol.asyncIterator]();
  // gzip files are carried as they are; anything else is compressed (pickles shrink 3-10x).
  const first: Uint8Array[] = [];
  let seen = 0;
  while (seen < 2) {
    const next = await source.next();
    if (next.done === true) break;
    first.push(next.value);
    seen += next.value.length;
  }
  const head = Buffer.concat(first);
  const isGzip = head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
  const original = Readable.from(
    (async function* () {
      hash.update(head);
      yield head;
      for (let next = await source.next(); next.done !== true; next = await source.next()) {
        hash.update(next.value);
        yield next.value;
      }
    })(),
    { objectMode: false },
  );
  const counts = { chunks: 0, embeddedBytes: 0 };
  const header: EmbeddedHeader = { schema: EMBEDDED_SNAPSHOT_SCHEMA, ...input.header };
  async function* page(gzip: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
    yield before;
    yield dataElement(HEADER_ELEMENT_ID, header);
    const piece = Buffer.alloc(CHUNK_BYTES);
    let filled = 0;
    for await (const data of gzip) {
      for (let at = 0; at < data.length;) {
        const taken = Math.min(CHUNK_BYTES - filled, data.length - at);
        piece.set(data.subarray(at, at + taken), filled);
        filled += taken;
        at += taken;
        if (filled === CHUNK_BYTES) {
          yield chunkElement(counts.chunks++, piece);
          counts.embeddedBytes += filled;
          filled = 0;
        }
      }
    }
    if (filled > 0) {
      yield chunkElement(counts.chunks++, piece.subarray(0, filled));
      counts.embeddedBytes += filled;
    }
    // Every byte of the file has been read (and hashed) once the compressed stream ends.
    written.end = { ...counts, compressedByAllocscope: !isGzip, sha256: hash.digest('hex') };
    yield dataElement(END_ELEMENT_ID, written.end);
    yield after;
  }
  const written: { end: EmbeddedEnd | null } = { end: null };
  if (isGzip) await pipeline(original, page, input.out);
  else await pipeline(original, createGzip(), page, input.out);
  if (written.end === null) throw new Error('the page was not finished');
  return written.end;
}
