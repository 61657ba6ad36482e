// The byte buffer behind the test pickle writer, with CPython's framing rules (protocol 4+), so
// that the output is byte-identical to the C pickler's (Modules/_pickle.c):
// - a frame opens lazily at the first write after PROTO or after a commit, leaving 9 bytes for
//   the FRAME header;
// - at each opcode boundary (the start of every save()) a frame holding >= 64 KiB is committed;
// - a committed frame shorter than 4 bytes gets no header at all;
// - payloads of >= 64 KiB (long str / bytes) are written outside any frame, the current frame
//   being committed first.
// Chunks go to the sink at each commit, so memory stays constant however large the pickle.

const FRAME = 0x95;
const FRAME_HEADER_SIZE = 9;
const FRAME_SIZE_MIN = 4;
export const FRAME_SIZE_TARGET = 64 * 1024;

/** Receives the output in order. The chunk is only valid during the call (the buffer is reused):
 *  write it out or copy it. */
export type PickleSink = (chunk: Uint8Array) => void;

export class PickleOutput {
  /** Exposed so the writer can fill bytes without a call per byte; valid after reserve(). */
  buf: Uint8Array;
  pos = 0;
  private view: DataView;
  private frameStart = -1;
  private framing = false;
  private flushedBytes = 0;

  constructor(private readonly sink: PickleSink) {
    this.buf = new Uint8Array(2 * FRAME_SIZE_TARGET);
    this.view = new DataView(this.buf.buffer);
  }

  /** Bytes produced so far (handed to the sink or still buffered). */
  get totalBytes(): number {
    return this.flushedBytes + this.pos;
  }

  enableFraming(): void {
    this.framing = true;
  }

  /** Makes room for n bytes at pos, opening a frame first when one is due. */
  reserve(n: number): void {
    if (this.frameStart < 0 && this.framing) {
      this.frameStart = this.pos;
      this.pos += FRAME_HEADER_SIZE;
    }
    if (this.pos + n > this.buf.length) this.grow(n);
  }

  byte(b: number): void {
    this.reserve(1);
    this.buf[this.pos++] = b;
  }

  /** An opcode followed by a 1-byte argument (BININT1, BINGET, BINPUT, ...). */
  byteArg1(op: number, arg: number): void {
    this.reserve(2);
    this.buf[this.pos++] = op;
    this.buf[this.pos++] = arg;
  }

  /** An opcode followed by a little-endian uint32 argument (LONG_BINGET, BININT, ...). */
  byteArg4(op: number, arg: number): void {
    this.reserve(5);
    this.buf[this.pos] = op;
    this.view.setUint32(this.pos + 1, arg >>> 0, true);
    this.pos += 5;
  }

  /** BINFLOAT's payload is a big-endian IEEE double. */
  byteFloat64(op: number, value: number): void {
    this.reserve(9);
    this.buf[this.pos] = op;
    this.view.setFloat64(this.pos + 1, value, false);
    this.pos += 9;
  }

  bytes(data: Uint8Array): void {
    this.reserve(data.length);
    this.buf.set(data, this.pos);
    this.pos += data.length;
  }

  /** CPython's _Pickler_OpcodeBoundary, called at the start of every save(). Without framing
   *  (protocol 2/3) it only flushes, which does not change the bytes. */
  boundary(): void {
    if (this.frameStart >= 0) {
      if (this.pos - this.frameStart - FRAME_HEADER_SIZE >= FRAME_SIZE_TARGET) {
        this.commitFrame();
        this.flush();
      }
    } else if (!this.framing && this.pos >= FRAME_SIZE_TARGET) {
      this.flush();
    }
  }

  /** CPython's _Pickler_write_bytes: a header (already encoded) plus a payload that bypasses
   *  framing when it is >= 64 KiB. */
  headerAndPayload(header: Uint8Array, payload: Uint8Array): void {
    if (payload.length < FRAME_SIZE_TARGET) {
      this.bytes(header);
      this.bytes(payload);
      return;
    }
    this.commitFrame();
    const framing = this.framing;
    this.framing = false;
    this.bytes(header);
    this.flush();
    this.sink(payload);
    this.flushedBytes += payload.length;
    this.framing = framing;
  }

  /** Ends the pickle: commits the last frame and hands everything to the sink. */
  finish(): void {
    this.commitFrame();
    this.flush();
  }

  private commitFrame(): void {
    if (this.frameStart < 0) return;
    const start = this.frameStart;
    const frameLen = this.pos - start - FRAME_HEADER_SIZE;
    if (frameLen >= FRAME_SIZE_MIN) {
      this.buf[start] = FRAME;
      // 64-bit little-endian length; frames never reach 4 GiB, so the high word is 0.
      this.view.setUint32(start + 1, frameLen, true);
      this.view.setUint32(start + 5, 0, true);
    } else {
      this.buf.copyWithin(start, start + FRAME_HEADER_SIZE, this.pos);
      this.pos -= FRAME_HEADER_SIZE;
    }
    this.frameStart = -1;
  }

  private flush(): void {
    if (this.frameStart >= 0) throw new Error('internal: flush with an open frame');
    if (this.pos === 0) return;
    this.sink(this.buf.subarray(0, this.pos));
    this.flushedBytes += this.pos;
    this.pos = 0;
  }

  private grow(n: number): void {
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.pos + n));
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }
}
