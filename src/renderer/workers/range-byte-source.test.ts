import { describe, expect, it } from 'vitest';
import { concatBytes } from '@shared/pickle/concat-bytes';
import { rangeByteSource, type SyncRequest } from './range-byte-source';

// A served file read by range requests: each read asks for exactly the range it reads (in the
// page's windows), and anything but that range's answer throws (the decode in parts then gives
// up, and the file is read as a stream on one thread).

const FILE = Uint8Array.from({ length: 5_000_000 }, (_, index) => (index * 7) % 256);

interface Server {
  ranges: string[];
  /** What the server does with a range (default: answers it). */
  answer?: (range: string) => { status: number; contentRange: string | null; body: Uint8Array };
}

function requests(server: Server): () => SyncRequest {
  return () => {
    let range = '';
    const request = {
      responseType: '' as XMLHttpRequestResponseType,
      status: 0,
      response: null as unknown,
      headers: new Map<string, string>(),
      open(method: string, _url: string, async: boolean) {
        expect([method, async]).toEqual(['GET', false]);
      },
      setRequestHeader(name: string, value: string) {
        expect(name).toBe('Range');
        range = value;
      },
      send() {
        server.ranges.push(range);
        const answer = server.answer?.(range) ?? answerRange(range);
        request.status = answer.status;
        request.response = answer.body.buffer;
        if (answer.contentRange !== null) request.headers.set('Content-Range', answer.contentRange);
      },
      getResponseHeader: (name: string) => request.headers.get(name) ?? null,
    };
    return request;
  };
}

/** What `allocscope serve` answers to a range. */
function answerRange(range: string): { status: number; contentRange: string; body: Uint8Array } {
  const [first, last] = /^bytes=(\d+)-(\d+)$/.exec(range)!.slice(1).map(Number) as [number, number];
  const body = FILE.slice(first, Math.min(FILE.length, last + 1));
  const contentRange = `bytes ${first}-${first + body.length - 1}/${FILE.length}`;
  return { status: 206, contentRange, body };
}

/** The page's fetch, answered as `server` answers (streamed reads). */
function fetchFor(server: Server): typeof fetch {
  return (async (_url: string, init?: RequestInit) => {
    const range = new Headers(init?.headers).get('Range')!;
    server.ranges.push(range);
    const answer = server.answer?.(range) ?? answerRange(range);
    const headers: Record<string, string> =
      answer.contentRange === null ? {} : { 'Content-Range': answer.contentRange };
    return new Response(answer.body.slice().buffer, { status: answer.status, headers });
  }) as typeof fetch;
}

async function streamed(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return concatBytes(
    parts,
    parts.reduce((sum, part) => sum + part.length, 0),
  );
}

/** Whether two long byte arrays hold the same bytes (toEqual is slow on megabytes). */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, index) => byte === b[index]);
}

describe('rangeByteSource', () => {
  it('reads what the file holds, in windows: few requests for many small reads', () => {
    const server: Server = { ranges: [] };
    const source = rangeByteSource(
      'http://127.0.0.1/t/files/0',
      FILE.length,
      requests(server),
      null,
    )!;
    for (let offset = 0; offset < 3_000_000; offset += 65_536)
      expect(source.read(offset, 9)).toEqual(FILE.subarray(offset, offset + 9));
    expect(source.read(4_999_990, 100)).toEqual(FILE.subarray(4_999_990));
    expect(source.read(FILE.length, 10)).toEqual(new Uint8Array(0));
    expect(server.ranges[0]).toBe('bytes=0-1048575');
    expect(server.ranges.length).toBeLessThanOrEqual(4);
  });

  it('throws when the answer is not the range asked for', () => {
    const whole = { status: 200, contentRange: null, body: FILE };
    const other = {
      status: 206,
      contentRange: `bytes 0-9/${FILE.length + 1}`,
      body: FILE.slice(0, 10),
    };
    for (const answer of [whole, other, { ...whole, status: 403, body: new Uint8Array(0) }]) {
      const server: Server = { ranges: [], answer: () => answer };
      const source = rangeByteSource('u', FILE.length, requests(server))!;
      expect(() => source.read(0, 10)).toThrow(/the server answered/);
    }
    const short: Server = {
      ranges: [],
      answer: () => ({
        status: 206,
        contentRange: `bytes 0-1048575/${FILE.length}`,
        body: FILE.slice(0, 10),
      }),
    };
    expect(() => rangeByteSource('u', FILE.length, requests(short))!.read(0, 10)).toThrow(
      /another length/,
    );
  });

  it('streams a long sequential read as one range request, and refuses another answer', async () => {
    const server: Server = { ranges: [] };
    const source = rangeByteSource('u', FILE.length, requests(server), fetchFor(server))!;
    const bytes = await streamed(source.chunks!(1_000_003, 4_000_000));
    expect(sameBytes(bytes, FILE.subarray(1_000_003, 4_000_000))).toBe(true);
    expect(server.ranges).toEqual(['bytes=1000003-3999999']);
    // Past the end: only what the file holds.
    expect((await streamed(source.chunks!(4_999_990, 6_000_000))).length).toBe(10);
    const whole = { status: 200, contentRange: null, body: FILE };
    const other = {
      status: 206,
      contentRange: `bytes 0-9/${FILE.length + 1}`,
      body: FILE.slice(0, 10),
    };
    const longer = {
      status: 206,
      contentRange: `bytes 0-9/${FILE.length}`,
      body: FILE.slice(0, 11),
    };
    for (const [answer, message] of [
      [whole, /the server answered 200/],
      [other, /the server answered 206/],
      [longer, /more bytes than were asked for/],
    ] as const) {
      const refusing: Server = { ranges: [], answer: () => answer };
      const source = rangeByteSource('u', FILE.length, requests(refusing), fetchFor(refusing))!;
      await expect(streamed(source.chunks!(0, 10))).rejects.toThrow(message);
    }
  });

  it('is null where there is no XMLHttpRequest', () => {
    expect(rangeByteSource('u', 10, null)).toBeNull();
  });
});
