// The tools `allocscope mcp` offers an agent: the questions the app and the CLI answer, on the same
// analysed model. Each tool builds the command line of the CLI command that answers it and runs
// that command's code (so a tool's figures are `allocscope … --json`'s, validated by the same
// option schema, refused with the same one-line words), with snapshots kept decoded between calls
// (./snapshot-cache.ts).

import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { summaryDocumentOf, summaryDocumentSchema } from '@shared/report/summary-report';
import {
  buildReportDocument,
  deviceReportSchema,
  oomExplanationSchema,
} from '@shared/report/report-document';
import { GROUP_BYS } from '@shared/holders/group-by';
import { GROWTH_BYS } from '@shared/steps/growth';
import { COMPARE_ALIGNMENTS } from '@shared/compare/phase-alignment';
import { PHASE_NAMES } from '@shared/steps/phases';
import { deviceLabel } from '@shared/format/words';
import type { AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { DEFAULT_CATEGORY_RULES } from '@shared/holders/category-rules';
import { defaultDeviceIndex as defaultDeviceOf } from '@shared/analyzed/moments';
import {
  parseCliOptions,
  RENDER_VIEWS,
  type DiffCliOptions,
  type RanksCliOptions,
  type RenderCliOptions,
  type StepsCliOptions,
  type TopCliOptions,
} from '../cli-options';
import { runTop } from '../run-top';
import { runSteps } from '../run-steps';
import { runDiff } from '../run-diff';
import { runRanks } from '../run-ranks';
import { renderView, resolveMoment } from '../run-render';
import { rasterizeSvg } from '../rasterize-svg';
import { summaryFiguresOf } from '../summary-figures';
import { chosenDevice, type SnapshotLoader } from '../load-analyzed-snapshot';
import { failureLine } from '../failure-line';
import { FileFailure } from '../file-failure';
import type { SnapshotCache } from './snapshot-cache';

const path = z
  .string()
  .min(1)
  .describe('A snapshot file on this machine (pickle, .gz, JSON, HTML)');
const device = z
  .union([z.number().int().min(0), z.literal('host'), z.literal('cpu')])
  .optional()
  .describe(
    'CUDA device ordinal, "host" for pinned host memory, or "cpu" for a profiler trace\'s CPU memory; default: the first device with an OOM, else the one with the largest active peak',
  );
const moment = z
  .union([z.number().int().min(-1), z.enum(['peak', 'oom', 'final'])])
  .optional()
  .describe(
    'The state after this trace entry (-1: before the first), or peak, oom, final; default: the first OOM, else the active peak',
  );

/** A document of one of our schemas: its id checked, the rest as documented in docs/. */
const documentOf = (schema: string) =>
  z
    .object({ schema: z.literal(schema) })
    .loose()
    .describe(`docs: ${schema}`);

function flag(name: string, value: string | number | undefined | null): string[] {
  return value === undefined || value === null ? [] : [`--${name}`, String(value)];
}

function json(value: object): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
    structuredContent: value as Record<string, unknown>,
  };
}

export function registerTools(server: McpServer, cache: SnapshotCache): void {
  const load: SnapshotLoader = async (file) => (await cache.get(file)).analyzed();
  /** Runs a tool's answer; a failure is a tool error in the CLI's words, naming the file. */
  const answer =
    <Args>(files: (args: Args) => string, run: (args: Args) => Promise<CallToolResult>) =>
    async (args: Args): Promise<CallToolResult> => {
      try {
        return await run(args);
      } catch (thrown) {
        const file = thrown instanceof FileFailure ? thrown.file : files(args);
        return { isError: true, content: [{ type: 'text', text: failureLine(thrown, file).line }] };
      }
    };

  server.registerTool(
    'open_snapshot',
    {
      title: 'Open a snapshot',
      description:
        'Decode a PyTorch CUDA memory snapshot (torch.cuda.memory._dump_snapshot) and list its devices with their peaks and OOMs; it stays decoded for the other tools. A folder lists the snapshot files in it (use ranks for a job’s ranks).',
      inputSchema: { path },
      outputSchema: {
        file: z.string(),
        bytes: z.number(),
        snapshots: z.array(z.string()).optional(),
        devices: z
          .array(
            z.object({
              device: z.number(),
              label: z.string(),
              trace_entries: z.number(),
              peak_active_bytes: z.number(),
              // null: the file records no reserved bytes (a CPU profiler trace).
              peak_reserved_bytes: z.number().nullable(),
              ooms: z.number(),
            }),
          )
          .optional(),
        default_device: z.number().nullable().optional(),
        warnings: z.array(z.string()).optional(),
      },
      annotations: { readOnlyHint: true },
    },
    answer(
      (args) => args.path,
      async (args) => {
        const facts = await stat(args.path);
        if (facts.isDirectory()) {
          const names = (await readdir(args.path, { withFileTypes: true }))
            .filter((entry) => entry.isFile() && /\.(pickle|pkl|gz|json|html?)$/i.test(entry.name))
            .map((entry) => join(args.path, entry.name))
            .sort();
          return json({ file: basename(args.path), bytes: 0, snapshots: names });
        }
        const snapshot = (await cache.get(args.path)).analyzed();
        return json({
          file: snapshot.fileName,
          bytes: snapshot.fileBytes,
          devices: snapshot.devices.map((one) => ({
            device: one.device,
            label: deviceLabel(one.device),
            trace_entries: one.traceLength,
            peak_active_bytes: one.figures.active.peakBytes,
            peak_reserved_bytes: one.figures.reservedRecorded
              ? one.figures.reserved.peakBytes
              : null,
            ooms: one.ooms.length,
          })),
          default_device:
            snapshot.devices.length === 0
              ? null
              : snapshot.devices[defaultDeviceOf(snapshot.devices)]!.device,
          warnings: [...snapshot.warnings],
        });
      },
    ),
  );

  server.registerTool(
    'summary',
    {
      title: 'Summary',
      description:
        'Headline figures per device, as `allocscope summary --json` (allocscope.summary/1): memory_allocated / memory_reserved peaks (active, allocated, reserved), OOMs, the largest allocations.',
      inputSchema: { path, device, top: z.number().int().min(0).max(1000).optional() },
      outputSchema: summaryDocumentSchema,
      annotations: { readOnlyHint: true },
    },
    answer(
      (args) => args.path,
      async (args) => {
        const { read } = await cache.get(args.path);
        const figures = summaryFiguresOf(read, {
          device: args.device === undefined ? null : deviceOrdinal(args.device),
          top: args.top ?? 10,
        });
        return json(summaryDocumentOf(figures));
      },
    ),
  );

  server.registerTool(
    'oom',
    {
      title: 'Why it ran out of memory',
      description:
        'The OOM explainer for a device: for each OOM its verdict (fragmentation, out-of-memory, fits-in-cache, process-limit), the request, what was free and cached, the largest hole, and who held the memory; without an OOM, the same figures at the active peak as a what-if.',
      inputSchema: { path, device },
      outputSchema: {
        file: z.string(),
        device: z.number(),
        device_label: z.string(),
        ooms: z.array(oomExplanationSchema),
        what_if: oomExplanationSchema.nullable(),
      },
      annotations: { readOnlyHint: true },
    },
    answer(
      (args) => args.path,
      async (args) => {
        const snapshot = await load(args.path, {});
        const index = chosenIndex(snapshot, args.device);
        const report = buildReportDocument(snapshot, { devices: [index] }).devices[0]!;
        return json({
          file: snapshot.fileName,
          device: report.device,
          device_label: deviceLabel(report.device),
          ooms: report.ooms,
          what_if: report.whatIf,
        });
      },
    ),
  );

  server.registerTool(
    'allocator_state',
    {
      title: 'Allocator state and fragmentation at a moment',
      description:
        'What the caching allocator holds at a moment and at the active peak: active, allocated, reserved, cached free, the largest free hole, small holes, segments, and the fragmentation over the trace (allocscope.report/1’s device entry).',
      inputSchema: { path, device, moment },
      outputSchema: deviceReportSchema.extend({ file: z.string(), event: z.number() }),
      annotations: { readOnlyHint: true },
    },
    answer(
      (args) => args.path,
      async (args) => {
        const snapshot = await load(args.path, {});
        const index = chosenIndex(snapshot, args.device);
        const chosen = snapshot.devices[index]!;
        const event = resolveMoment(chosen, args.moment ?? 'peak');
        const report = buildReportDocument(snapshot, {
          devices: [index],
          moment: { deviceIndex: index, event },
        }).devices[0]!;
        return json({ file: snapshot.fileName, event, ...report });
      },
    ),
  );

  server.registerTool(
    'top',
    {
      title: 'Who holds the memory',
      description:
        'The memory alive at a moment grouped by top user frame, stack, file, category, size class, annotation span, stream, pool…, largest first, as `allocscope top --json` (allocscope.top/1). grep: a regular expression (RE2) over the stack frames.',
      inputSchema: {
        path,
        device,
        moment,
        by: z.enum(GROUP_BYS).optional(),
        grep: z.string().max(1000).optional(),
        limit: z.number().int().min(1).max(10_000).optional(),
      },
      outputSchema: documentOf('allocscope.top/1'),
      annotations: { readOnlyHint: true },
    },
    answer(
      (args) => args.path,
      async (args) => {
        const options = parseCliOptions([
          'top',
          args.path,
          '--json',
          ...flag('device', args.device),
          ...flag('moment', args.moment),
          ...flag('by', args.by),
          ...flag('grep', args.grep),
          ...flag('limit', args.limit),
        ]) as TopCliOptions;
        return json(JSON.parse(await runTop(options, load)) as object);
      },
    ),
  );

  server.registerTool(
    'steps',
    {
      title: 'Steps, phases and leak suspects',
      description:
        'Training steps (from ProfilerStep / Optimizer.step annotations, else the repeating shape of the curve), each step’s phases (forward, backward, optimizer), whether memory grows step after step and who keeps it, as `allocscope steps --json` (allocscope.steps/1).',
      inputSchema: { path, device, by: z.enum(GROWTH_BYS).optional() },
      outputSchema: documentOf('allocscope.steps/1'),
      annotations: { readOnlyHint: true },
    },
    answer(
      (args) => args.path,
      async (args) => {
        const options = parseCliOptions([
          'steps',
          args.path,
          '--json',
          ...flag('device', args.device),
          ...flag('by', args.by),
        ]) as StepsCliOptions;
        return json(JSON.parse(await runSteps(options, load)) as object);
      },
    ),
  );

  server.registerTool(
    'diff',
    {
      title: 'Compare two snapshots or devices',
      description:
        'What changed between two snapshots (or two devices of one: deviceB), by default at matched phases (the peak of the phase in which the higher run peaks, in each); align "peaks" compares each one’s own peak; as `allocscope diff --json` (allocscope.diff/1).',
      inputSchema: {
        a: path,
        b: path,
        device,
        deviceB: device,
        moment,
        align: z.enum(COMPARE_ALIGNMENTS).optional(),
        phase: z.enum(PHASE_NAMES).optional(),
        by: z.enum(GROUP_BYS).optional(),
        limit: z.number().int().min(1).max(10_000).optional(),
      },
      outputSchema: documentOf('allocscope.diff/1'),
      annotations: { readOnlyHint: true },
    },
    answer(
      (args) => `${args.a}, ${args.b}`,
      async (args) => {
        const options = parseCliOptions([
          'diff',
          args.a,
          args.b,
          '--json',
          ...flag('device', args.device),
          ...flag('device-b', args.deviceB),
          ...flag('moment', args.moment),
          ...flag('align', args.align),
          ...flag('phase', args.phase),
          ...flag('by', args.by),
          ...flag('limit', args.limit),
        ]) as DiffCliOptions;
        return json(JSON.parse(await runDiff(options, load)) as object);
      },
    ),
  );

  server.registerTool(
    'ranks',
    {
      title: 'The ranks of one job',
      description:
        'Snapshots of one job’s ranks (a folder, or files): each rank’s peaks, growth per step, first OOM, the skew and the outliers, as `allocscope ranks --json` (allocscope.ranks/1).',
      inputSchema: { paths: z.array(z.string().min(1)).min(1).max(1024) },
      outputSchema: documentOf('allocscope.ranks/1'),
      annotations: { readOnlyHint: true },
    },
    answer(
      (args) => args.paths.join(', '),
      async (args) => {
        const options = parseCliOptions(['ranks', ...args.paths, '--json']) as RanksCliOptions;
        return json(JSON.parse(await runRanks(options)) as object);
      },
    ),
  );

  server.registerTool(
    'render',
    {
      title: 'A picture',
      description:
        'One of the app’s pictures as a PNG: the memory timeline, the segments at a moment, fragmentation, the OOM explainer, the flame graph of what is alive, categories or steps.',
      inputSchema: {
        path,
        view: z.enum(RENDER_VIEWS).optional(),
        device,
        moment,
        width: z.number().int().min(200).max(4000).optional(),
        height: z.number().int().min(150).max(4000).optional(),
        theme: z.enum(['light', 'dark']).optional(),
      },
      annotations: { readOnlyHint: true },
    },
    answer(
      (args) => args.path,
      async (args) => {
        const options = parseCliOptions([
          'render',
          args.path,
          '--png',
          'picture.png',
          ...flag('view', args.view),
          ...flag('device', args.device),
          ...flag('moment', args.moment),
          ...flag('width', args.width),
          ...flag('height', args.height),
          ...flag('theme', args.theme),
        ]) as RenderCliOptions;
        const snapshot = await load(args.path, {});
        const index = chosenIndex(snapshot, options.device);
        const { svg, what } = renderView(snapshot, index, options, DEFAULT_CATEGORY_RULES);
        const image = rasterizeSvg(svg, {
          width: options.width,
          height: options.height,
          scale: 1,
        });
        return {
          content: [
            {
              type: 'image',
              data: Buffer.from(image.png).toString('base64'),
              mimeType: 'image/png',
            },
            {
              type: 'text',
              text: `${snapshot.fileName} ${deviceLabel(snapshot.devices[index]!.device)}: ${what} (PNG ${image.width}x${image.height})`,
            },
          ],
        };
      },
    ),
  );
}

/** A tool's device as the analysed snapshot numbers it (HOST_DEVICE -1, CPU_DEVICE -2). */
function deviceOrdinal(device: number | 'host' | 'cpu'): number {
  return device === 'host' ? -1 : device === 'cpu' ? -2 : device;
}

/** Index of the device a tool reads: chosenDevice's rule (the one asked for, else the first
 *  with an OOM, else the largest peak; no devices: the CLI's notice). */
function chosenIndex(
  snapshot: AnalyzedSnapshot,
  device: number | 'host' | 'cpu' | null | undefined,
): number {
  const ordinal = device === undefined || device === null ? null : deviceOrdinal(device);
  return snapshot.devices.indexOf(chosenDevice(snapshot, ordinal));
}
