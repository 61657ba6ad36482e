import { describe, expect, it } from 'vitest';
import { exactChunks } from './stream-chunks';

/** A stream of `chunks`, which notes whether it was cancelled. */
function streamOf(chunks: number[][]): {
  stream: ReadableStream<Uint8Array>;
  cancelled: () => boolean;
} {
  let cancelled = false;
  let next = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < chunks.length) controller.enqueue(new Uint8Array(chunks[next++]!));
      else controller.close();
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, cancelled: () => cancelled };
}

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<number[]> {
  const bytes: number[] = [];
  for await (const chunk of chunks) bytes.push(...chunk);
  return bytes;
}

describe('exactChunks (a stream of the bytes asked for)', () => {
  it('gives every byte of a stream of the length asked for, in order', async () => {
    const { stream, cancelled } = streamOf([[1, 2], [3], [4, 5, 6]]);
    expect(await collect(exactChunks(stream, 6))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(cancelled()).toBe(false);
  });

  it('throws for fewer bytes (a file that became shorter) and for more (a range ignored)', async () => {
    await expect(collect(exactChunks(streamOf([[1, 2], [3]]).stream, 4))).rejects.toThrow(
      'the file became shorter while it was read',
    );
    const longer = streamOf([[1, 2], [3, 4], [5], [6], [7], [8]]);
    await expect(collect(exactChunks(longer.stream, 3))).rejects.toThrow(
      'the stream held more bytes than were asked for',
    );
    expect(longer.cancelled()).toBe(true);
  });

  it('cancels the stream when its reader stops early (a part whose trace list ended)', async () => {
    const { stream, cancelled } = streamOf([[1], [2], [3]]);
    for await (const chunk of exactChunks(stream, 3)) {
      expect([...chunk]).toEqual([1]);
      break;
    }
    expect(cancelled()).toBe(true);
  });
});
