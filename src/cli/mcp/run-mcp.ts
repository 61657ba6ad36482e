// `allocscope mcp`: a Model Context Protocol server over standard input and output, on the
// official SDK, for coding agents (./mcp-tools.ts has the tools). Standard output carries the
// protocol only: nothing else may be printed there while it runs.

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { version } from '../../../package.json';
import { registerTools } from './mcp-tools';
import { SnapshotCache } from './snapshot-cache';

export async function runMcp(): Promise<void> {
  const server = new McpServer(
    { name: 'allocscope', version },
    {
      instructions:
        'allocscope answers questions about PyTorch CUDA memory snapshots (the pickle torch.cuda.memory._dump_snapshot() writes): open_snapshot first, then summary, oom (why it ran out of memory), top (who holds the memory at a moment), allocator_state, steps (growth, leak suspects), diff (two runs or devices), ranks, render (PNG). Paths are files on the machine the server runs on. Sizes are bytes; PyTorch words: active ~ memory_allocated, reserved = memory_reserved.',
    },
  );
  registerTools(server, new SnapshotCache());
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
  });
  await server.connect(new StdioServerTransport());
  await closed;
}
