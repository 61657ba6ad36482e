// `allocscope serve` as a user runs it (the built command): bad paths and a taken port are one
// line and exit 2 before anything listens; a good start prints the URL and the ssh line, serves
// the file's bytes under the token only, and Ctrl+C (SIGINT) or SIGTERM stops it with exit 0.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { hostname, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_PATH, runCli } from '../support/cli';
import { realSnapshotPath } from '../support/real-snapshots';
import { formatBytes } from '../../src/shared/format/units';

const directory = mkdtempSync(join(tmpdir(), 'allocscope-serve-cli-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** One line on stderr naming the path, nothing on stdout, exit 2. */
function expectRefused(args: string[], line: RegExp): void {
  const run = runCli(['serve', ...args]);
  expect(run.status, run.stderr).toBe(2);
  expect(run.stdout).toBe('');
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines[0]).toMatch(line);
}

interface Started {
  child: ChildProcess;
  url: string;
  stdout: string;
}

async function startServe(args: string[]): Promise<Started> {
  const child = spawn(process.execPath, [CLI_PATH, 'serve', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const found = /http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{43}\//.exec(stdout);
      if (found && stdout.includes('Ctrl+C')) resolve(found[0]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
  return { child, url, stdout };
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

describe('allocscope serve (the built command)', () => {
  it('refuses a path that is not there, not a file or folder, or a folder without snapshots', () => {
    const missing = join(directory, 'missing.pickle');
    expectRefused([missing], /^allocscope: cannot serve .*missing\.pickle: /);
    const empty = join(directory, 'empty');
    mkdirSync(empty);
    writeFileSync(join(empty, 'notes.txt'), 'no snapshot here');
    expectRefused(
      [realSnapshotPath('a0kuma'), empty],
      /^allocscope: cannot serve .*empty: the folder holds no snapshot file/,
    );
    expectRefused(
      ['/dev/null'],
      /^allocscope: cannot serve \/dev\/null: neither a file nor a folder/,
    );
    expectRefused([], /^allocscope: serve needs a FILE or DIR/);
    expectRefused(['--port', '70000', realSnapshotPath('a0kuma')], /--port/);
  });

  it('refuses a port in use, naming it and the way out', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const address = taken.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      expectRefused(
        ['--port', String(port), realSnapshotPath('a0kuma')],
        new RegExp(`^allocscope: port ${port} is in use; pass --port 0 for a free one$`),
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('prints the URL and the ssh line, serves the file with the token, and stops on Ctrl+C', async () => {
    const file = realSnapshotPath('a0kuma');
    const { child, url, stdout } = await startServe(['--port', '0', file]);
    const exited = exitOf(child);
    const port = new URL(url).port;
    expect(stdout).toContain(`ssh -N -L ${port}:127.0.0.1:${port} ${hostname()}`);
    // What the URL gives access to, said where it is printed.
    expect(stdout).toContain(
      `serving 1 snapshot (${formatBytes(statSync(file).size)}): ${basename(file)}\n`,
    );
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('allocscope-served');
    const manifest = (await (await fetch(new URL('served.json', url))).json()) as {
      files: { id: string; path: string }[];
    };
    expect(manifest.files.map((entry) => entry.path)).toEqual([file]);
    const bytes = await fetch(new URL(`files/${manifest.files[0]!.id}`, url));
    expect(Buffer.from(await bytes.arrayBuffer()).equals(readFileSync(file))).toBe(true);
    expect((await fetch(new URL('/', url))).status).toBe(403);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  it('stops on SIGTERM too, with browsers still connected', async () => {
    const { child, url } = await startServe(['--port', '0', realSnapshotPath('a0kuma')]);
    const exited = exitOf(child);
    // A kept-alive connection must not hold the server open.
    expect((await fetch(url, { keepalive: true })).status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('says on stderr what a non-loopback address exposes', async () => {
    const file = realSnapshotPath('a0kuma');
    const child = spawn(
      process.execPath,
      [CLI_PATH, 'serve', '--port', '0', '--host', '0.0.0.0', file],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = exitOf(child);
    let stderr = '';
    await new Promise<void>((resolve) =>
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes('\n')) resolve();
      }),
    );
    expect(stderr).toMatch(
      /^allocscope: serve listens on 0\.0\.0\.0 port \d+: anyone who can reach this machine there and has the URL \(its token\) can read the page and /,
    );
    expect(stderr).toContain(file);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  it('is not loaded by the other commands (their start-up stays as it was)', () => {
    const bundle = readFileSync(CLI_PATH, 'utf8');
    expect(bundle).toMatch(/import\(["']\.\/assets\/run-serve-[\w-]+\.js["']\)/);
    expect(
      spawnSync(process.execPath, [CLI_PATH, '--help'], { encoding: 'utf8' }).stdout,
    ).toContain('allocscope serve FILE|DIR...');
  });
});
