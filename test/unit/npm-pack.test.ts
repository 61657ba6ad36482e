// The package `npm pack` makes installs without a clone and without Electron (issue 23): packed
// from the built command and web build (npm test or the global setup built out/cli and out/web; `npm pack`
// outside the tests builds them itself, `prepack`), installed into an empty folder as a user on a
// GPU box would, where `allocscope summary`, `allocscope serve` and `allocscope mcp` work. Nothing of ours runs at install time, Electron
// is not downloaded, and the React, d3 and other page libraries stay out (the web build bundles
// them).

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { realSnapshotPath } from '../support/real-snapshots';
import { runCli } from '../support/cli';

const ROOT = resolve(import.meta.dirname, '../..');
const directory = mkdtempSync(join(tmpdir(), 'allocscope-pack-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 240_000 });
  expect(result.status, `${command} ${args.join(' ')}\n${result.stderr}`).toBe(0);
  return result.stdout;
}

describe('npm pack', () => {
  let installed: string;
  beforeAll(() => {
    // The bundle the global setup built; prepack would build it again.
    run('npm', ['pack', '--ignore-scripts', '--pack-destination', directory], ROOT);
    const tarball = readdirSync(directory).find((name) => name.endsWith('.tgz'))!;
    installed = join(directory, 'install');
    run('mkdir', ['-p', installed], directory);
    writeFileSync(join(installed, 'package.json'), '{ "name": "gpu-box", "private": true }\n');
    run(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', join(directory, tarball)],
      installed,
    );
  }, 300_000);

  it('installs no Electron, no page libraries, and nothing runs at install', () => {
    const modules = join(installed, 'node_modules');
    for (const absent of ['electron', 'react', 'react-dom', 'd3', 'vite', 'typescript'])
      expect(existsSync(join(modules, absent)), absent).toBe(false);
    const manifest = JSON.parse(readFileSync(join(modules, 'allocscope/package.json'), 'utf8')) as {
      scripts?: Record<string, string>;
    };
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare'])
      expect(manifest.scripts?.[hook], hook).toBeUndefined();
    // The web build `serve` hands out, without its source maps (megabytes no user needs).
    const web = join(modules, 'allocscope/out/web');
    expect(existsSync(join(web, 'index.html'))).toBe(true);
    expect(readdirSync(join(web, 'assets')).filter((name) => name.endsWith('.map'))).toEqual([]);
    const cli = join(modules, 'allocscope/out/cli');
    const cliFiles = [...readdirSync(cli), ...readdirSync(join(cli, 'assets'))];
    expect(cliFiles.filter((name) => name.endsWith('.map'))).toEqual([]);
    // The bench's and the demo's generator is no part of the command.
    expect(cliFiles.filter((name) => name.startsWith('generate-'))).toEqual([]);
  });

  it('serves the page and a snapshot with `allocscope serve` from the installed command', async () => {
    const file = realSnapshotPath('a0kuma');
    const server = spawn(
      join(installed, 'node_modules/.bin/allocscope'),
      ['serve', '--port', '0', file],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const exited = new Promise((resolve) => server.once('exit', resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        server.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const found = /http:\/\/127\.0\.0\.1:\d+\/[\w-]{43}\//.exec(out);
          if (found && out.includes('Ctrl+C')) resolve(found[0]);
        });
        server.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
      });
      const page = await (await fetch(url)).text();
      expect(page).toContain('allocscope-served');
      // The page's own scripts (the bundle, and the one ahead of it that starts the decode
      // worker from its file), as the browser will ask for them.
      const scripts = [...page.matchAll(/src="\.\/(assets\/[\w-]+\.js)"/g)].map((m) => m[1]!);
      expect(scripts).toContain('assets/served-prestart.js');
      expect(scripts).toHaveLength(2);
      for (const script of [...scripts, 'assets/decode-worker.js']) {
        const scriptAnswer = await fetch(new URL(script, url));
        expect(scriptAnswer.status).toBe(200);
        expect(scriptAnswer.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      }
      const bytes = await fetch(new URL('files/0', url));
      expect(Buffer.from(await bytes.arrayBuffer()).equals(readFileSync(file))).toBe(true);
    } finally {
      server.kill('SIGINT');
    }
    expect(await exited).toBe(0);
  }, 60_000);

  it('runs `allocscope summary` from the installed command as the clone does', () => {
    const file = realSnapshotPath('a0kuma');
    const installedRun = spawnSync(
      join(installed, 'node_modules/.bin/allocscope'),
      ['summary', file, '--json'],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(installedRun.status, installedRun.stderr).toBe(0);
    expect(JSON.parse(installedRun.stdout)).toEqual(
      JSON.parse(runCli(['summary', file, '--json']).stdout),
    );
  });

  it('decodes a file on the threads --jobs asks for, as the clone does (the workers shipped)', () => {
    const file = realSnapshotPath('LINYUNLinYun');
    const threads = (command: string[]): unknown => {
      const result = spawnSync(
        command[0]!,
        [...command.slice(1), 'summary', file, '--jobs', '2', '--timings', '--json'],
        { encoding: 'utf8', timeout: 60_000 },
      );
      expect(result.status, result.stderr).toBe(0);
      // --timings writes one line on stderr: "allocscope-timings {...}".
      const line = /^allocscope-timings (\{.*\})$/m.exec(result.stderr);
      expect(line, result.stderr).not.toBeNull();
      return (JSON.parse(line![1]!) as { decode_threads?: number }).decode_threads;
    };
    expect(threads([process.execPath, join(ROOT, 'out/cli/allocscope.js')])).toBe(2);
    expect(threads([join(installed, 'node_modules/.bin/allocscope')])).toBe(2);
  });

  it('writes an `allocscope html` page from the installed command (its template shipped)', () => {
    const output = join(directory, 'page.html');
    const installedRun = spawnSync(
      join(installed, 'node_modules/.bin/allocscope'),
      ['html', realSnapshotPath('a0kuma'), '-o', output],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(installedRun.status, installedRun.stderr).toBe(0);
    const page = readFileSync(output, 'utf8');
    expect(page).toContain('id="allocscope-snapshot"');
    expect(page).toContain('id="allocscope-snapshot-end"');
    expect(page).toContain("default-src 'none'");
  });

  it('serves `allocscope mcp` from the installed command', async () => {
    const client = new Client({ name: 'allocscope-pack-test', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: join(installed, 'node_modules/.bin/allocscope'),
        args: ['mcp'],
        stderr: 'pipe',
      }),
    );
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('summary');
    const answer = (await client.callTool({
      name: 'summary',
      arguments: { path: realSnapshotPath('a0kuma') },
    })) as { structuredContent?: { schema?: string } };
    expect(answer.structuredContent?.schema).toBe('allocscope.summary/1');
    await client.close();
  }, 60_000);
});
