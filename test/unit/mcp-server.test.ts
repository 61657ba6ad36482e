// `allocscope mcp` driven by the SDK's own client: over stdio against the built command (as an
// agent starts it), and in-process over the SDK's in-memory transport to count decodes. The tools
// answer what the CLI's --json answers, byte for byte of the parsed documents, on real snapshots
// (real CUDA ones from an H200 among them); a bad file is a tool error in the CLI's words naming
// it; two calls on one file decode it once; a picture is a PNG.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { join, resolve } from 'node:path';
import { CLI_PATH, runCli } from '../support/cli';
import { realSnapshotPath } from '../support/real-snapshots';
import { registerTools } from '../../src/cli/mcp/mcp-tools';
import { SnapshotCache } from '../../src/cli/mcp/snapshot-cache';

const CUDA = resolve(import.meta.dirname, '../fixtures/cuda-h200');
const OOM_FILE = join(CUDA, 'oom.pickle');
const STEPS_FILE = join(CUDA, 'steps.pickle.gz');
const ADAM = realSnapshotPath('a0kuma');
const LINYUN = realSnapshotPath('LINYUN');

interface ToolResult {
  isError?: boolean;
  content: { type: string; text?: string; data?: string; mimeType?: string }[];
  structuredContent?: Record<string, unknown>;
}

function cliJson(args: string[]): unknown {
  const run = runCli(args);
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

describe('allocscope mcp over stdio', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: 'allocscope-test', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI_PATH, 'mcp'],
        stderr: 'pipe',
      }),
    );
  }, 60_000);
  afterAll(() => client.close());
  const call = async (name: string, args: Record<string, unknown>): Promise<ToolResult> =>
    (await client.callTool({ name, arguments: args })) as ToolResult;

  it('lists its tools, each with an input schema, the documents with output schemas', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name).sort();
    expect(names).toEqual(
      [
        'allocator_state',
        'diff',
        'oom',
        'open_snapshot',
        'ranks',
        'render',
        'steps',
        'summary',
        'top',
      ].sort(),
    );
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.description?.length ?? 0, tool.name).toBeGreaterThan(40);
      if (tool.name !== 'render') expect(tool.outputSchema?.type, tool.name).toBe('object');
    }
    const top = tools.find((tool) => tool.name === 'top')!;
    expect(Object.keys(top.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['path', 'device', 'moment', 'by', 'grep', 'limit']),
    );
  });

  it.each([ADAM, LINYUN, OOM_FILE, STEPS_FILE])(
    'summary, top and steps of %s are the CLI’s',
    async (file) => {
      const summary = await call('summary', { path: file });
      expect(summary.isError ?? false).toBe(false);
      expect(summary.structuredContent).toEqual(cliJson(['summary', file, '--json']));
      // The text content is the same document, for clients that read only text.
      expect(JSON.parse(summary.content[0]!.text!)).toEqual(summary.structuredContent);

      const top = await call('top', { path: file, by: 'category', limit: 5 });
      expect(top.structuredContent).toEqual(
        cliJson(['top', file, '--json', '--by', 'category', '--limit', '5']),
      );
      const steps = await call('steps', { path: file });
      expect(steps.structuredContent).toEqual(cliJson(['steps', file, '--json']));
    },
  );

  it('oom and allocator_state are the report’s device entry; diff is the CLI’s', async () => {
    const report = cliJson(['report', OOM_FILE, '--json', '-']) as {
      devices: { device: number; ooms: unknown[]; whatIf: unknown; atPeak: unknown }[];
    };
    const oom = await call('oom', { path: OOM_FILE });
    const device = report.devices.find(
      (entry) => entry.device === (oom.structuredContent!['device'] as number),
    )!;
    expect(device.ooms.length).toBeGreaterThan(0);
    expect(oom.structuredContent!['ooms']).toEqual(device.ooms);
    expect(oom.structuredContent!['what_if']).toEqual(device.whatIf);

    const state = await call('allocator_state', { path: OOM_FILE, moment: 'peak' });
    expect(state.structuredContent!['atPeak']).toEqual(device.atPeak);

    const diff = await call('diff', { a: ADAM, b: LINYUN, by: 'category' });
    expect(diff.structuredContent).toEqual(
      cliJson(['diff', ADAM, LINYUN, '--json', '--by', 'category']),
    );
  });

  it('a bad file or a bad option is a tool error in the CLI’s words, naming the file', async () => {
    const bad = await call('summary', { path: '/etc/hostname' });
    expect(bad.isError).toBe(true);
    const cli = runCli(['summary', '/etc/hostname']);
    expect(cli.status).toBe(2);
    expect(bad.content[0]!.text).toBe(cli.stderr.trim());
    expect(bad.content[0]!.text).toMatch(/^allocscope: hostname: /);

    const missing = await call('top', { path: '/nonexistent/run.pickle' });
    expect(missing.isError).toBe(true);
    expect(missing.content[0]!.text).toMatch(/^allocscope: run\.pickle: /);

    const device = await call('top', { path: ADAM, device: 7 });
    expect(device.isError).toBe(true);
    expect(device.content[0]!.text).toContain('device 7 is not in');

    const grep = await call('top', { path: ADAM, grep: '(' });
    expect(grep.isError).toBe(true);
    expect(grep.content[0]!.text).toMatch(/--grep/);
    // The server is still there after errors.
    expect((await call('open_snapshot', { path: ADAM })).isError ?? false).toBe(false);
  });

  it('renders a picture as PNG image content', async () => {
    const picture = await call('render', { path: ADAM, view: 'segments', width: 640, height: 360 });
    const image = picture.content.find((part) => part.type === 'image')!;
    expect(image.mimeType).toBe('image/png');
    const png = Buffer.from(image.data!, 'base64');
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(640);
    expect(png.readUInt32BE(20)).toBe(360);
  });
});

describe('allocscope mcp keeps snapshots decoded', () => {
  it('two calls on one file decode it once; another file once more', async () => {
    const cache = new SnapshotCache();
    const server = new McpServer({ name: 'allocscope', version: 'test' });
    registerTools(server, cache);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'allocscope-test', version: '1' });
    await client.connect(clientSide);
    await client.callTool({ name: 'summary', arguments: { path: ADAM } });
    await client.callTool({ name: 'top', arguments: { path: ADAM } });
    await client.callTool({ name: 'steps', arguments: { path: ADAM } });
    expect(cache.decodes).toBe(1);
    await client.callTool({ name: 'diff', arguments: { a: ADAM, b: LINYUN } });
    expect(cache.decodes).toBe(2);
    await client.close();
  });

  it('drops the least recently used snapshot past its memory budget', async () => {
    // A budget that holds one of these two small files at a time.
    const cache = new SnapshotCache(12 * 2 ** 20);
    await cache.get(ADAM);
    await cache.get(LINYUN);
    expect(cache.paths().map((path) => path.split('/').pop())).toEqual([LINYUN.split('/').pop()]);
    await cache.get(ADAM);
    expect(cache.decodes).toBe(3);
  });
});
