import { describe, expect, it } from 'vitest';
import { UnreadableInputError } from '@shared/errors/unreadable-input';
import {
  contentLengthOf,
  openSnapshotSource,
  ReportedBug,
  snapshotRefusalSchema,
  type SnapshotSource,
} from './snapshot-source';

const URL_REQUEST = {
  kind: 'url',
  url: `allocscope-file://snapshot/${'A'.repeat(43)}`,
  fileName: 'run.pickle',
} as const;

async function bytesOf(source: SnapshotSource): Promise<number[]> {
  const bytes: number[] = [];
  for await (const chunk of source.chunks) bytes.push(...chunk);
  return bytes;
}

const answer = (response: Response) => () => Promise.resolve(response);

function refusal(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
  });
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

describe('openSnapshotSource', () => {
  it('reads a File as a stream, with its name and size', async () => {
    const file = new File([Uint8Array.from([1, 2, 3])], 'run.pickle');
    const source = await openSnapshotSource({ kind: 'file', file }, () => {
      throw new Error('a File is never fetched');
    });
    expect(source.fileName).toBe('run.pickle');
    expect(source.totalBytes).toBe(3);
    expect(await bytesOf(source)).toEqual([1, 2, 3]);
  });

  it("reads a URL's body as it arrives, sized by Content-Length", async () => {
    const fetched: string[] = [];
    const source = await openSnapshotSource(URL_REQUEST, (url) => {
      fetched.push(url);
      return Promise.resolve(
        new Response(Uint8Array.from([4, 5, 6, 7]), { headers: { 'Content-Length': '4' } }),
      );
    });
    expect(fetched).toEqual([URL_REQUEST.url]);
    expect(source.fileName).toBe('run.pickle');
    expect(source.totalBytes).toBe(4);
    expect(await bytesOf(source)).toEqual([4, 5, 6, 7]);
  });

  it('gives the same bytes and size for the same file, whichever way it comes', async () => {
    const data = Uint8Array.from({ length: 3000 }, (_, index) => index % 251);
    const file = await openSnapshotSource({ kind: 'file', file: new File([data], 'run.pickle') });
    const url = await openSnapshotSource(
      URL_REQUEST,
      answer(new Response(data, { headers: { 'Content-Length': String(data.length) } })),
    );
    expect(url.totalBytes).toBe(file.totalBytes);
    expect(await bytesOf(url)).toEqual(await bytesOf(file));
  });

  it('stops reading the body when the decoder stops early', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.enqueue(new Uint8Array(8)),
      cancel: () => void (cancelled = true),
    });
    const source = await openSnapshotSource(URL_REQUEST, answer(new Response(body)));
    for await (const chunk of source.chunks) {
      expect(chunk).toHaveLength(8);
      break;
    }
    expect(cancelled).toBe(true);
  });

  it('lets the response end, not abort, when the decoder stops at its last byte', async () => {
    let cancelled = false;
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        pulls++;
        if (pulls === 1) controller.enqueue(new Uint8Array(8));
        // The end comes a moment after the last bytes, as over a network or IPC.
        else await new Promise((resolve) => setTimeout(resolve, 10)).then(() => controller.close());
      },
      cancel: () => void (cancelled = true),
    });
    const source = await openSnapshotSource(
      URL_REQUEST,
      answer(new Response(body, { headers: { 'Content-Length': '8' } })),
    );
    for await (const chunk of source.chunks) {
      expect(chunk).toHaveLength(8);
      break; // the pickle's STOP was in this chunk
    }
    expect(cancelled).toBe(false);
  });

  it("turns main's refusal into the file's fault, in its words", async () => {
    const error = await failureOf(
      openSnapshotSource(URL_REQUEST, answer(refusal(422, { message: 'no such file' }))),
    );
    expect(error).toBeInstanceOf(UnreadableInputError);
    expect((error as Error).message).toBe('no such file');
  });

  it("turns main's refusal with a report into a bug with that report", async () => {
    const bugReport = 'allocscope internal error\nallocscope-file: request refused: …';
    const error = await failureOf(
      openSnapshotSource(
        URL_REQUEST,
        answer(refusal(404, { message: 'internal error: unknown link', bugReport })),
      ),
    );
    expect(error).toBeInstanceOf(ReportedBug);
    expect((error as ReportedBug).message).toBe('internal error: unknown link');
    expect((error as ReportedBug).bugReport).toBe(bugReport);
  });

  it('describes any other refusal by its status (the web build’s server)', async () => {
    const cases: [Response, string][] = [
      [new Response('Not found', { status: 404 }), 'the file is not part of this build'],
      [
        new Response('', { status: 500, statusText: 'Internal Server Error' }),
        'the server answered 500 Internal Server Error',
      ],
      [refusal(403, { message: 'x', extra: 1 }), 'the server answered 403'],
      [refusal(403, { message: '' }), 'the server answered 403'],
      [refusal(403, { message: 'x'.repeat(10_001) }), 'the server answered 403'],
      [refusal(403, { message: 'x', bugReport: 7 }), 'the server answered 403'],
      [
        new Response('{not json', {
          status: 418,
          headers: { 'Content-Type': 'application/json' },
        }),
        'the server answered 418',
      ],
    ];
    for (const [response, message] of cases) {
      const error = await failureOf(openSnapshotSource(URL_REQUEST, answer(response)));
      expect(error).toBeInstanceOf(UnreadableInputError);
      expect((error as Error).message).toBe(message);
    }
  });

  it('says so when the URL cannot be fetched at all', async () => {
    const error = await failureOf(
      openSnapshotSource(URL_REQUEST, () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    expect(error).toBeInstanceOf(UnreadableInputError);
    expect((error as Error).message).toBe('could not read it (Failed to fetch)');
  });

  it('says the file could not be read when the body breaks off', async () => {
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) controller.enqueue(new Uint8Array(4));
        else controller.error(new TypeError('network error'));
        sent = true;
      },
    });
    const source = await openSnapshotSource(URL_REQUEST, answer(new Response(body)));
    const error = await failureOf(bytesOf(source));
    expect(error).toBeInstanceOf(UnreadableInputError);
    expect((error as Error).message).toBe('the file could not be read (network error)');
  });
});

describe('contentLengthOf', () => {
  it('reads a plain byte count, and nothing else', () => {
    const lengthOf = (value: string | null) =>
      contentLengthOf(
        new Response(null, value === null ? {} : { headers: { 'Content-Length': value } }),
      );
    expect(lengthOf('0')).toBe(0);
    expect(lengthOf('1073741824')).toBe(1073741824);
    expect(lengthOf(null)).toBeNull();
    expect(lengthOf('')).toBeNull();
    expect(lengthOf('-1')).toBeNull();
    expect(lengthOf('1e9')).toBeNull();
    expect(lengthOf('12, 12')).toBeNull();
    expect(lengthOf('99999999999999999')).toBeNull();
  });
});

describe('snapshotRefusalSchema', () => {
  it('accepts what main sends, and nothing more', () => {
    expect(snapshotRefusalSchema.parse({ message: 'no such file' })).toEqual({
      message: 'no such file',
    });
    expect(
      snapshotRefusalSchema.parse({ message: 'internal error: x', bugReport: 'stack' }),
    ).toEqual({ message: 'internal error: x', bugReport: 'stack' });
    for (const refused of [null, 'no such file', {}, { message: 1 }, { message: 'x', path: '/' }]) {
      expect(snapshotRefusalSchema.safeParse(refused).success, JSON.stringify(refused)).toBe(false);
    }
  });
});
