import { execFileSync } from 'node:child_process';
import { randomFillSync } from 'node:crypto';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  MAX_REFUSAL_MESSAGE_LENGTH,
  nodeSnapshotFileSystem,
  READ_CHUNK_BYTES,
  respondToSnapshotRequest,
  snapshotProtocolHandler,
  type OpenSnapshotFile,
  type SnapshotFileStats,
  type SnapshotFileSystem,
  type SnapshotResponse,
} from './snapshot-protocol';
import { createSnapshotTokenTable, type SnapshotTokenTable } from './snapshot-tokens';
import { snapshotUrlOf } from './snapshot-url';

let directory = '';
let tokens: SnapshotTokenTable;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'allocscope-protocol-'));
  tokens = createSnapshotTokenTable();
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** A URL for `path`, as main hands it over. */
function handOver(path: string, owner = 1): string {
  return snapshotUrlOf(tokens.issue({ path, fileName: 'run.pickle' }, owner));
}

function get(url: string, fileSystem: SnapshotFileSystem = nodeSnapshotFileSystem) {
  return respondToSnapshotRequest({ method: 'GET', url }, tokens, fileSystem);
}

async function bytesOf(response: SnapshotResponse): Promise<Uint8Array> {
  return new Uint8Array(await new Response(response.body).arrayBuffer());
}

function refusalOf(response: SnapshotResponse): unknown {
  expect(response.headers['Content-Type']).toBe('application/json; charset=utf-8');
  expect(typeof response.body).toBe('string');
  return JSON.parse(response.body as string);
}

function randomBytes(length: number): Uint8Array {
  return randomFillSync(new Uint8Array(length));
}

const regularStats = (size: number): SnapshotFileStats => ({
  size,
  isFile: () => true,
  isDirectory: () => false,
  isFIFO: () => false,
  isSocket: () => false,
  isCharacterDevice: () => false,
  isBlockDevice: () => false,
});

const fifoStats: SnapshotFileStats = {
  ...regularStats(0),
  isFile: () => false,
  isFIFO: () => true,
};

/** A file system that records what it was asked, over files held in memory. */
function memoryFileSystem(files: Record<string, Uint8Array>, options: { readFails?: Error } = {}) {
  const log: string[] = [];
  const fileSystem: SnapshotFileSystem = {
    stat(path) {
      log.push(`stat ${path}`);
      const data = files[path];
      if (!data) return Promise.reject(Object.assign(new Error('ENOENT'), { code: 'ENOENT' }));
      return Promise.resolve(regularStats(data.length));
    },
    open(path) {
      log.push(`open ${path}`);
      const size = files[path]!.length;
      const file: OpenSnapshotFile = {
        stat: () => Promise.resolve(regularStats(size)),
        read(buffer, position) {
          log.push(`read ${position}`);
          if (options.readFails) return Promise.reject(options.readFails);
          // What the file holds now: it may have changed since it was opened.
          const bytes = files[path]!.subarray(position, position + buffer.length);
          buffer.set(bytes);
          return Promise.resolve(bytes.length);
        },
        close() {
          log.push(`close ${path}`);
          return Promise.resolve();
        },
      };
      return Promise.resolve(file);
    },
  };
  return { fileSystem, log };
}

/** A file system that must not be touched (the request is refused before any file). */
const untouchable: SnapshotFileSystem = {
  stat: (path) => Promise.reject(new Error(`stat ${path} must not happen`)),
  open: (path) => Promise.reject(new Error(`open ${path} must not happen`)),
};

describe('respondToSnapshotRequest, a valid token', () => {
  it('streams the exact bytes of the file, with its size and type', async () => {
    const path = join(directory, 'run.pickle');
    const data = randomBytes(2 * READ_CHUNK_BYTES + 12_345);
    await writeFile(path, data);
    const response = await get(handOver(path));
    expect(response.status).toBe(200);
    expect(response.headers).toEqual({
      'Content-Type': 'application/octet-stream',
      'Content-Length': String(data.length),
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Access-Control-Allow-Origin': '*',
    });
    expect(Buffer.compare(await bytesOf(response), data)).toBe(0);
  });

  it('reads in 1 MiB chunks as the consumer asks, and closes the file at the end', async () => {
    const data = randomBytes(READ_CHUNK_BYTES + 10);
    const { fileSystem, log } = memoryFileSystem({ '/data/run.pickle': data });
    const response = await get(handOver('/data/run.pickle'), fileSystem);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const chunks: number[] = [];
    for (let result = await reader.read(); !result.done; result = await reader.read()) {
      chunks.push(result.value.length);
    }
    expect(chunks).toEqual([READ_CHUNK_BYTES, 10]);
    expect(log).toEqual([
      'stat /data/run.pickle',
      'open /data/run.pickle',
      'read 0',
      `read ${READ_CHUNK_BYTES}`,
      'close /data/run.pickle',
    ]);
  });

  it('serves an empty file as an empty body', async () => {
    const path = join(directory, 'empty.pickle');
    await writeFile(path, new Uint8Array(0));
    const response = await get(handOver(path));
    expect(response.status).toBe(200);
    expect(response.headers['Content-Length']).toBe('0');
    expect(await bytesOf(response)).toHaveLength(0);
  });

  it('follows a symbolic link the user chose to its file', async () => {
    const target = join(directory, 'target.pickle');
    const link = join(directory, 'link.pickle');
    await writeFile(target, Uint8Array.from([1, 2, 3]));
    await symlink(target, link);
    expect(Array.from(await bytesOf(await get(handOver(link))))).toEqual([1, 2, 3]);
  });

  it('closes the file when the page cancels the stream', async () => {
    const { fileSystem, log } = memoryFileSystem({ '/a': randomBytes(3 * READ_CHUNK_BYTES) });
    const response = await get(handOver('/a'), fileSystem);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await reader.cancel();
    expect(log.at(-1)).toBe('close /a');
    expect(log.filter((entry) => entry.startsWith('read')).length).toBeLessThan(3);
  });

  it('ends the stream with an error when a read fails, and closes the file', async () => {
    const readFails = Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' });
    const { fileSystem, log } = memoryFileSystem({ '/a': randomBytes(10) }, { readFails });
    const response = await get(handOver('/a'), fileSystem);
    await expect(bytesOf(response)).rejects.toThrow('EIO');
    expect(log.at(-1)).toBe('close /a');
  });

  it('stops at the size it announced, whether the file grows or shrinks meanwhile', async () => {
    // Past the first chunk, which may be read ahead as soon as the stream exists.
    const size = READ_CHUNK_BYTES + 100;
    const data = randomBytes(size);
    const files = { '/a': data };
    const { fileSystem } = memoryFileSystem(files);
    const grows = await get(handOver('/a'), fileSystem);
    files['/a'] = new Uint8Array([...data, ...randomBytes(50)]);
    expect((await bytesOf(grows)).length).toBe(size);

    files['/a'] = data;
    const shrinks = await get(handOver('/a'), fileSystem);
    files['/a'] = data.subarray(0, READ_CHUNK_BYTES + 40);
    expect(shrinks.headers['Content-Length']).toBe(String(size));
    expect((await bytesOf(shrinks)).length).toBe(READ_CHUNK_BYTES + 40);
  });
});

describe('respondToSnapshotRequest refuses', () => {
  it('an unknown or forged token as a bug, touching no file', async () => {
    const url = handOver(join(directory, 'run.pickle'));
    const forged = url.slice(0, -1) + (url.endsWith('A') ? 'B' : 'A');
    const response = await get(forged, untouchable);
    expect(response.status).toBe(404);
    expect(refusalOf(response)).toEqual({
      message: 'internal error: the link to this file is unknown or was already used',
      bugReport:
        'allocscope internal error\nallocscope-file: request refused: the link to this file is ' +
        'unknown or was already used',
    });
    expect(response.headers['Access-Control-Allow-Origin']).toBe('*');
  });

  it('a second request for the same URL: a token opens its file once', async () => {
    const path = join(directory, 'run.pickle');
    await writeFile(path, randomBytes(10));
    const url = handOver(path);
    expect((await get(url)).status).toBe(200);
    expect((await get(url)).status).toBe(404);
  });

  it('a token used up by a failed request too', async () => {
    const url = handOver(join(directory, 'missing.pickle'));
    expect((await get(url)).status).toBe(422);
    expect((await get(url)).status).toBe(404);
  });

  it('a revoked or released token', async () => {
    const path = join(directory, 'run.pickle');
    await writeFile(path, randomBytes(10));
    const revoked = handOver(path, 1);
    tokens.revoke(1);
    expect((await get(revoked, untouchable)).status).toBe(404);
    const released = handOver(path, 2);
    tokens.release(released.slice(released.lastIndexOf('/') + 1), 2);
    expect((await get(released, untouchable)).status).toBe(404);
  });

  it('path traversal and every other URL that is not exactly a token', async () => {
    const path = join(directory, 'run.pickle');
    await writeFile(path, randomBytes(10));
    const url = handOver(path);
    const token = url.slice(url.lastIndexOf('/') + 1);
    const attempts = [
      `allocscope-file://snapshot/${token}/../../../../etc/passwd`,
      `allocscope-file://snapshot/../../etc/passwd`,
      `allocscope-file://snapshot/..%2f..%2fetc%2fpasswd`,
      `allocscope-file://snapshot/${encodeURIComponent(path)}`,
      `allocscope-file://${path}`,
      `allocscope-file:///etc/passwd`,
      `allocscope-file://snapshot/${token}?path=/etc/passwd`,
      `allocscope-file://snapshot/${token}/`,
      `file://${path}`,
      'allocscope-file://snapshot/',
      'not a url',
    ];
    for (const attempt of attempts) {
      const response = await get(attempt, untouchable);
      expect(response.status, attempt).toBe(404);
    }
    // None of them used the token up.
    expect((await get(url)).status).toBe(200);
  });

  it('anything but GET, without using the token up', async () => {
    const path = join(directory, 'run.pickle');
    await writeFile(path, randomBytes(10));
    const url = handOver(path);
    for (const method of ['HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS']) {
      const response = await respondToSnapshotRequest({ method, url }, tokens, untouchable);
      expect(response.status, method).toBe(405);
      expect(response.headers['Allow']).toBe('GET');
      expect(refusalOf(response)).toMatchObject({
        message: expect.stringMatching(/^internal error: /) as unknown,
      });
    }
    expect((await get(url)).status).toBe(200);
  });

  it('a directory as the file’s fault, in the usual words', async () => {
    const folder = join(directory, 'folder.pickle');
    await mkdir(folder);
    const response = await get(handOver(folder));
    expect(response.status).toBe(422);
    expect(refusalOf(response)).toEqual({ message: 'is a directory, not a snapshot file' });
  });

  it('a missing file', async () => {
    const response = await get(handOver(join(directory, 'gone.pickle')));
    expect(response.status).toBe(422);
    expect(refusalOf(response)).toEqual({ message: 'no such file' });
  });

  it('a file it may not read', async () => {
    const denied = Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    const fileSystem: SnapshotFileSystem = {
      stat: () => Promise.resolve(regularStats(10)),
      open: () => Promise.reject(denied),
    };
    const response = await get(handOver('/root/run.pickle'), fileSystem);
    expect(response.status).toBe(422);
    expect(refusalOf(response)).toEqual({ message: 'permission denied' });
  });

  // Opening a FIFO for reading blocks until a writer comes: it must be refused from its stat.
  it.skipIf(process.platform === 'win32')('a named pipe, without opening it', async () => {
    const fifo = join(directory, 'pipe.pickle');
    execFileSync('mkfifo', [fifo]);
    const response = await get(handOver(fifo));
    expect(response.status).toBe(422);
    expect(refusalOf(response)).toEqual({ message: 'is a named pipe (FIFO), not a regular file' });
  });

  it.skipIf(process.platform === 'win32')('a device', async () => {
    const response = await get(handOver('/dev/null'));
    expect(response.status).toBe(422);
    expect(refusalOf(response)).toEqual({ message: 'is a device, not a regular file' });
  });

  it('a path that became a FIFO between its stat and its opening (checked again once open)', async () => {
    const closed: string[] = [];
    const fileSystem: SnapshotFileSystem = {
      stat: () => Promise.resolve(regularStats(10)),
      open: (path) =>
        Promise.resolve({
          stat: () => Promise.resolve(fifoStats),
          read: () => Promise.reject(new Error('must not read')),
          close: () => Promise.resolve(void closed.push(path)),
        }),
    };
    const response = await get(handOver('/data/swapped.pickle'), fileSystem);
    expect(response.status).toBe(422);
    expect(refusalOf(response)).toEqual({ message: 'is a named pipe (FIFO), not a regular file' });
    expect(closed).toEqual(['/data/swapped.pickle']);
  });

  it('with a bug report when something unexpected breaks, clipped to fit', async () => {
    const fileSystem: SnapshotFileSystem = {
      stat: () => Promise.reject(new TypeError('x'.repeat(2 * MAX_REFUSAL_MESSAGE_LENGTH))),
      open: () => Promise.reject(new Error('unused')),
    };
    const response = await get(handOver('/data/run.pickle'), fileSystem);
    expect(response.status).toBe(500);
    const refusal = refusalOf(response) as { message: string; bugReport: string };
    expect(refusal.message).toHaveLength(MAX_REFUSAL_MESSAGE_LENGTH);
    expect(refusal.message).toMatch(/^internal error: x+ \[…\]$/);
    expect(refusal.bugReport).toContain('TypeError: xxx');
  });
});

describe('snapshotProtocolHandler', () => {
  it('answers a web Request with a web Response: the bytes, or the refusal', async () => {
    const path = join(directory, 'run.pickle');
    const data = randomBytes(5000);
    await writeFile(path, data);
    const handler = snapshotProtocolHandler(tokens, nodeSnapshotFileSystem);
    const url = handOver(path);
    // A Range header is ignored: the whole file, 200.
    const response = await handler(new Request(url, { headers: { Range: 'bytes=10-20' } }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe('5000');
    expect(Buffer.compare(new Uint8Array(await response.arrayBuffer()), data)).toBe(0);

    const again = await handler(new Request(url));
    expect(again.status).toBe(404);
    expect(again.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await again.json()).toMatchObject({
      message: expect.stringContaining('already used') as unknown,
    });
  });

  it('never rejects: an error escaping the handler is a 500 refusal with its report', async () => {
    const handler = snapshotProtocolHandler(
      {
        redeem() {
          throw new RangeError('table broken');
        },
      },
      untouchable,
    );
    const response = await handler(new Request(snapshotUrlOf('A'.repeat(43))));
    expect(response.status).toBe(500);
    const refusal = (await response.json()) as { message: string; bugReport: string };
    expect(refusal.message).toBe('internal error: table broken');
    expect(refusal.bugReport).toContain('RangeError: table broken');
  });
});
