// Command-line parsing: argv in, validated options out (zod at the boundary), or a usage error.

import { z } from 'zod';
import { GROUP_BYS } from '@shared/holders/group-by';
import { COLOR_BYS } from '@shared/holders/band-coloring';
import { GROWTH_BYS } from '@shared/steps/growth';
import { COMPARE_ALIGNMENTS } from '@shared/compare/phase-alignment';
import { PHASE_NAMES } from '@shared/steps/phases';
import { groupDigits } from '@shared/errors/unreadable-input';
import { MAX_PATTERN_CHARS } from '@shared/format/user-regex';
import { compileSearch } from '@shared/holders/search';
import { parseByteSize } from './memory-limit';

export const USAGE = `allocscope: where did the GPU memory go? (PyTorch CUDA memory snapshots)

usage:
  allocscope summary FILE [--device N] [--json] [--top K] [--bytes] [--timings]
  allocscope report FILE [--json OUT.json|-] [--device N]
  allocscope render FILE --png OUT.png [--svg OUT.svg]
                    [--view timeline|segments|fragmentation|oom|flame|categories|steps]
                    [--width W] [--height H] [--scale S] [--device N] [--moment EVENT]
                    [--theme light|dark] [--color-by COLOURING] [--rules RULES.json]
  allocscope segments FILE [--device N] [--moment EVENT] [--bytes]
  allocscope top FILE [--moment EVENT] [--by GROUPING] [--grep REGEX] [--rules RULES.json]
                 [--device N] [--limit K] [--json] [--folded OUT.txt] [--bytes]
  allocscope steps FILE [--device N] [--by stack|frame|category] [--rules RULES.json]
                   [--json] [--bytes]
  allocscope diff A B [--moment EVENT] [--align phases|peaks] [--phase PHASE] [--by GROUPING]
                  [--device N] [--device-b N] [--rules RULES.json] [--limit K] [--json]
                  [--bytes]
  allocscope ranks DIR|FILES... [--json] [--bytes]
  allocscope serve FILE|DIR... [--port P] [--host H]
  allocscope html FILE -o OUT.html [--moment EVENT] [--view VIEW] [--device N]
  allocscope mcp
  every command but serve and mcp also takes --max-memory SIZE, and all of those but ranks
  --jobs N;
  summary, report, render, top and steps also --memory-timeline TIMELINE

  FILE        a snapshot from torch.cuda.memory._dump_snapshot(): .pickle / .pkl, its
              JSON form (.json), - for standard input, gzip-compressed (.gz), or the
              HTML page of torch.cuda._memory_viz trace_plot; or a PyTorch profiler
              trace (export_chrome_trace, *.pt.trace.json[.gz], profile_memory=True),
              or its memory timeline (export_memory_timeline's .json or .raw.json.gz:
              PyTorch's categories' bytes over time)
  --memory-timeline TIMELINE  the same run's export_memory_timeline beside a profiler
              trace FILE: each allocation takes the category PyTorch gave it (the
              timeline's allocation of the same bytes within 1 us), for top --by
              category, steps --by category and the summary's bytes by category
  --device N  only device N, host for pinned host memory, or cpu for a profiler
              trace's CPU memory (render: default the first device with an OOM, else
              the one with the largest active peak)
  --json      summary: print one JSON document (schema allocscope.summary/1) to stdout;
              report: write the findings (schema allocscope.report/1) to OUT.json, - for stdout
  --top K     list the K largest allocations alive at the active peak (default 10)
  --bytes     show exact byte counts beside human units
  --max-memory SIZE  the memory reading one snapshot may take (8G, 512M; default: this
              machine's memory): a gzip-compressed snapshot that would unpack to more is
              refused early; so is, unless --max-memory is given, one that would unpack
              to more than 64 times its size and 32 MiB (a gzip bomb)
  --jobs N    threads that decode one snapshot (default: this machine's cores, as its free
              memory allows; 1 under 256 MiB or 4 cores): an uncompressed pickle of
              protocol 4-5 is cut into parts at trace entries; gzip, JSON and older
              pickles decode on one thread. The result is the same for any N
  --timings   print decode/analysis timings, CPU time and peak memory to stderr (a refused
              file too)
  --png, --svg  render: write the chart as a PNG image and/or an SVG document
  --view      render: the memory timeline (default), the allocator's segments at a moment
              (the app's segments picture at its Fit scale: all of it in W x H),
              fragmentation over time, or the OOM explainer (the first OOM, or the one at
              --moment EVENT; without an OOM the active peak as "what if"), the flame
              graph of the memory alive at the moment, the live memory by category over
              the trace, or the training steps (each step's peak, what it leaves active,
              the growth line and the leak suspects, as the Steps view exports them)
  --width W, --height H  render: size in CSS pixels (default 1600 x 900; times --scale at
              most 8192 a side and 33,554,432 pixels in all)
  --scale S   render: PNG pixels per CSS pixel (default 1; 2 for a sharp 2x image)
  --moment EVENT  the state after trace entry EVENT (-1: before the first), or one of
              final, peak (the active peak), oom (the first OOM). render: marks it on the
              timeline and the fragmentation chart; the segments view and segments show it
              (default: the first OOM, else the active peak, as in the app)
  --theme     render: light (default) or dark colours
  --color-by  render: colour the timeline's allocations by stack (default), allocation, or
              one of top's groupings (category, frame, file, annotation, ...); a grouping
              gives its largest groups at the active peak a colour each, named in the legend
  --by        top: group the memory alive at the moment by stack, frame (the top user
              frame, default), file, op (the profiler op that made it: traces only),
              category, size (power-of-two size classes), annotation (the span it was made in),
              stream, pool, metadata (user metadata), compile_context or forward_frame
              (where autograd created the tensor in the forward pass)
  --grep      top: only allocations whose stack has a frame ("file:line name") matching
              the regular expression (case ignored; RE2 syntax, linear time: no lookaround
              or backreferences), or whose block holds a hex address
  --rules     top, render, steps: categories by this rules file (allocscope.category-rules/1) instead of
              the built-in rules (docs/categories.md)
  --limit K   top: list the K largest groups (default 20; the rest are summed)
  --folded    top: also write the live memory as folded stacks (flamegraph.pl, speedscope)

  steps       the training steps (from the ProfilerStep#N / step annotations, else the
              repeating shape of the active curve; only complete steps), each step's peak
              and what is active at its end, whether that grows step after step, and who
              keeps it: memory made in a step and still held at the end, grouped --by frame
              (default), stack or category, steadiest growth first; --json: allocscope.steps/1
  diff        two snapshots (A and B; or two devices of one: --device-b) at a moment of
              each: by default matched phases (--align phases): the peak of the phase in
              which the higher run peaks (forward, backward, optimizer, other), in A and in
              B, or the phase named by --phase; --align peaks compares each one's own active
              peak; --moment oom|final|EVENT a moment of each. Their figures side by side,
              each phase's peaks, and what changed, grouped --by frame (default) or any of
              top's groupings: appeared, disappeared, grew, shrank, with A's and B's bytes
              (the deltas add up to the difference of the moments' active bytes);
              --json: allocscope.diff/1
  ranks       the snapshots of one job's ranks (a folder, or files; ranks from names like
              rank3.pickle, *_rank_3.pickle, snapshot_r3.pickle, else name order), read in
              parallel worker threads: each rank's peaks, what is cached but free at its
              active peak and the largest hole there, first OOM and steps; the skew (highest
              peak over the median), the outliers, the highest and the ranks that ran out;
              --json: allocscope.ranks/1 (with the wall time and the workers)

  serve       the viewer and these snapshots (a folder's as ranks) over HTTP from this machine,
              for a browser elsewhere: on 127.0.0.1 (--host: another address) port 7317
              (--port 0: a free one), at a URL with a random token; it prints the URL and
              the ssh -L line for a laptop (README: "On a GPU box over SSH"); Ctrl+C stops it

  html        one self-contained page to send: the viewer and the snapshot (gzip) in one
              HTML file that opens offline from disk in a browser (no server, no network),
              on --device, --moment and --view (timeline, allocations, segments,
              fragmentation, oom, flame, categories, steps) when given (README: "Send a
              finding as one HTML file")

  mcp         a Model Context Protocol server on standard input/output for coding agents:
              the tools open_snapshot, summary, oom, allocator_state, top, steps, diff,
              ranks and render answer as the commands' --json do, on snapshots kept
              decoded between calls (README: "For coding agents")

exit status: 0 ok, 2 bad input or usage, 1 an internal error (a bug: the stack is printed)`;

/** serve's port unless told: one number, so the ssh -L line a user keeps stays right. */
export const DEFAULT_SERVE_PORT = 7317;

export class UsageError extends Error {
  override name = 'UsageError';
}

/** A moment of the trace: an event index, or a named one resolved against the device. */
export type MomentSpec = number | 'final' | 'peak' | 'oom';

const momentSchema = z.union([z.number().int().min(-1), z.enum(['final', 'peak', 'oom'])]);

// A CUDA device ordinal, -1 for pinned host memory (`--device host`, HOST_DEVICE), or -2 for a
// profiler trace's CPU memory (`--device cpu`, CPU_DEVICE).
const deviceSchema = z.number().int().min(-2).nullable();

// --max-memory in bytes (every command that reads snapshots); null (the default): this
// machine's memory. Optional for callers that build options in code (tests).
const maxMemorySchema = z.number().int().positive().nullable().optional();

// --jobs N: threads that decode one snapshot (1 to 64); null or absent: as the cores and the
// memory allow (src/cli/decode-jobs.ts).
const jobsSchema = z.number().int().min(1).max(64).nullable().optional();

// --memory-timeline FILE: the same run's export_memory_timeline beside a profiler trace (its
// allocations take PyTorch's categories); null or absent: none.
const memoryTimelineSchema = z.string().min(1).nullable().optional();

const summaryOptionsSchema = z.object({
  command: z.literal('summary'),
  maxMemory: maxMemorySchema,
  jobs: jobsSchema,
  memoryTimeline: memoryTimelineSchema,
  file: z.string().min(1),
  device: deviceSchema,
  json: z.boolean(),
  top: z.number().int().nonnegative().max(100_000),
  bytes: z.boolean(),
  timings: z.boolean(),
});

/**
 * Largest picture `render` makes, a side and in all (CSS pixels x --scale): 8192 x 4096 pixels, an
 * 8K UHD poster (7680 x 4320) or 4K at --scale 2. resvg holds the whole RGBA image (128 MiB at
 * the cap) and the PNG encoder a copy; 16384 x 16384 took 20 s and 3.4 GB, and aborted the
 * process under a 6 GB limit.
 */
export const MAX_IMAGE_PIXELS_SIDE = 8192;
export const MAX_IMAGE_PIXELS = 8192 * 4096;
const SIDE_TOO_LARGE = `render makes pictures of at most ${MAX_IMAGE_PIXELS_SIDE} pixels a side`;

/** The app's charts `render` draws (the tabs whose PNG/SVG export draws the same picture). */
export const RENDER_VIEWS = [
  'timeline',
  'segments',
  'fragmentation',
  'oom',
  'flame',
  'categories',
  'steps',
] as const;
export type RenderView = (typeof RENDER_VIEWS)[number];

const renderOptionsSchema = z
  .object({
    command: z.literal('render'),
    maxMemory: maxMemorySchema,
    jobs: jobsSchema,
    memoryTimeline: memoryTimelineSchema,
    file: z.string().min(1),
    png: z.string().min(1).nullable(),
    svg: z.string().min(1).nullable(),
    view: z.enum(RENDER_VIEWS),
    width: z.number().int().min(200).max(MAX_IMAGE_PIXELS_SIDE, SIDE_TOO_LARGE),
    height: z.number().int().min(120).max(MAX_IMAGE_PIXELS_SIDE, SIDE_TOO_LARGE),
    scale: z.number().positive().max(8),
    device: deviceSchema,
    moment: momentSchema.nullable(),
    theme: z.enum(['light', 'dark']),
    colorBy: z.enum(COLOR_BYS),
    rules: z.string().min(1).nullable(),
  })
  .superRefine((options, context) => {
    if (options.png === null && options.svg === null)
      context.addIssue({
        code: 'custom',
        message: 'render needs --png OUT.png (or --svg OUT.svg)',
      });
    for (const side of ['width', 'height'] as const) {
      if (Math.round(options[side] * options.scale) > MAX_IMAGE_PIXELS_SIDE)
        context.addIssue({
          code: 'custom',
          path: ['scale'],
          message: `${side} x scale must stay within ${MAX_IMAGE_PIXELS_SIDE} pixels`,
        });
    }
    const width = Math.round(options.width * options.scale);
    const height = Math.round(options.height * options.scale);
    if (width * height > MAX_IMAGE_PIXELS)
      context.addIssue({
        code: 'custom',
        message:
          `the picture would be ${width} x ${height} = ${groupDigits(width * height)} pixels ` +
          `(--width x --height x --scale); render makes at most ${groupDigits(MAX_IMAGE_PIXELS)} ` +
          `(${MAX_IMAGE_PIXELS_SIDE} x ${MAX_IMAGE_PIXELS / MAX_IMAGE_PIXELS_SIDE})`,
      });
  });

const segmentsOptionsSchema = z.object({
  command: z.literal('segments'),
  maxMemory: maxMemorySchema,
  jobs: jobsSchema,
  file: z.string().min(1),
  device: deviceSchema,
  moment: momentSchema.nullable(),
  bytes: z.boolean(),
});

const topOptionsSchema = z.object({
  command: z.literal('top'),
  maxMemory: maxMemorySchema,
  jobs: jobsSchema,
  memoryTimeline: memoryTimelineSchema,
  file: z.string().min(1),
  device: deviceSchema,
  moment: momentSchema.nullable(),
  by: z.enum(GROUP_BYS),
  // Checked before any file is read: an expression RE2 cannot run is a usage error.
  grep: z
    .string()
    .min(1)
    .max(MAX_PATTERN_CHARS)
    .nullable()
    .superRefine((text, context) => {
      const search = text === null ? null : compileSearch({ text, regex: true });
      if (search?.kind === 'invalid') context.addIssue({ code: 'custom', message: search.message });
    }),
  rules: z.string().min(1).nullable(),
  limit: z.number().int().min(1).max(1_000_000),
  json: z.boolean(),
  folded: z.string().min(1).nullable(),
  bytes: z.boolean(),
});

const stepsOptionsSchema = z.object({
  command: z.literal('steps'),
  maxMemory: maxMemorySchema,
  jobs: jobsSchema,
  memoryTimeline: memoryTimelineSchema,
  file: z.string().min(1),
  device: deviceSchema,
  by: z.enum(GROWTH_BYS),
  rules: z.string().min(1).nullable(),
  json: z.boolean(),
  bytes: z.boolean(),
});

const diffOptionsSchema = z.object({
  command: z.literal('diff'),
  maxMemory: maxMemorySchema,
  jobs: jobsSchema,
  fileA: z.string().min(1),
  fileB: z.string().min(1),
  device: deviceSchema,
  deviceB: deviceSchema,
  moment: momentSchema,
  /** How the peaks are compared (with --moment peak): matched phases or each one's own. */
  align: z.enum(COMPARE_ALIGNMENTS),
  phase: z.enum(PHASE_NAMES).nullable(),
  by: z.enum(GROUP_BYS),
  rules: z.string().min(1).nullable(),
  limit: z.number().int().min(1).max(1_000_000),
  json: z.boolean(),
  bytes: z.boolean(),
});

const ranksOptionsSchema = z.object({
  command: z.literal('ranks'),
  maxMemory: maxMemorySchema,
  files: z.array(z.string().min(1)).min(1),
  json: z.boolean(),
  bytes: z.boolean(),
});

/** The lower views `html --view` opens on: render's words, and the allocations table. */
export const HTML_VIEWS = ['allocations', ...RENDER_VIEWS] as const;

const htmlOptionsSchema = z.object({
  command: z.literal('html'),
  maxMemory: maxMemorySchema,
  jobs: jobsSchema,
  file: z.string().min(1),
  output: z.string().min(1, 'html needs -o OUT.html'),
  device: deviceSchema,
  moment: momentSchema.nullable(),
  view: z.enum(HTML_VIEWS).nullable(),
});

const reportOptionsSchema = z.object({
  command: z.literal('report'),
  maxMemory: maxMemorySchema,
  jobs: jobsSchema,
  memoryTimeline: memoryTimelineSchema,
  file: z.string().min(1),
  device: deviceSchema,
  /** '-' for stdout; null for the human-readable text. */
  json: z.string().min(1).nullable(),
});

// Files are served as named; a folder's snapshot files with it (src/cli/serve/served-files.ts).
const serveOptionsSchema = z.object({
  command: z.literal('serve'),
  paths: z.array(z.string().min(1)).min(1),
  port: z.number().int().min(0).max(65_535),
  host: z.string().min(1),
});

export type ServeCliOptions = z.infer<typeof serveOptionsSchema>;
export type SummaryCliOptions = z.infer<typeof summaryOptionsSchema>;
export type RenderCliOptions = z.infer<typeof renderOptionsSchema>;
export type SegmentsCliOptions = z.infer<typeof segmentsOptionsSchema>;
export type ReportCliOptions = z.infer<typeof reportOptionsSchema>;
export type TopCliOptions = z.infer<typeof topOptionsSchema>;
export type StepsCliOptions = z.infer<typeof stepsOptionsSchema>;
export type DiffCliOptions = z.infer<typeof diffOptionsSchema>;
export type RanksCliOptions = z.infer<typeof ranksOptionsSchema>;
export type HtmlCliOptions = z.infer<typeof htmlOptionsSchema>;
export type CliOptions =
  | SummaryCliOptions
  | RanksCliOptions
  | ServeCliOptions
  | HtmlCliOptions
  | DiffCliOptions
  | StepsCliOptions
  | TopCliOptions
  | RenderCliOptions
  | SegmentsCliOptions
  | ReportCliOptions
  | { command: 'help' }
  | { command: 'mcp' };

const COMMANDS = [
  'summary',
  'report',
  'render',
  'segments',
  'top',
  'steps',
  'diff',
  'ranks',
  'serve',
  'html',
] as const;
type Command = (typeof COMMANDS)[number];

type FlagKind =
  'switch' | 'integer' | 'number' | 'text' | 'moment' | 'optional-text' | 'device' | 'size';

/** Every command reads snapshots, and may be told how much memory decoding one may take. */
const MEMORY_FLAG = { '--max-memory': 'size' } as const;

/** The commands that read one snapshot (or two) may be told how many threads decode one. */
const DECODE_FLAGS = { ...MEMORY_FLAG, '--jobs': 'integer' } as const;

/** The commands that read one profiler trace may be given its memory timeline beside it. */
const TIMELINE_FLAG = { '--memory-timeline': 'text' } as const;

/** The flags each command takes, and what their values are. */
const FLAGS: Record<Command, Record<string, FlagKind>> = {
  summary: {
    ...DECODE_FLAGS,
    ...TIMELINE_FLAG,
    '--device': 'device',
    '--json': 'switch',
    '--top': 'integer',
    '--bytes': 'switch',
    '--timings': 'switch',
  },
  report: { ...DECODE_FLAGS, ...TIMELINE_FLAG, '--device': 'device', '--json': 'optional-text' },
  render: {
    ...DECODE_FLAGS,
    ...TIMELINE_FLAG,
    '--png': 'text',
    '--svg': 'text',
    '--view': 'text',
    '--width': 'integer',
    '--height': 'integer',
    '--scale': 'number',
    '--device': 'device',
    '--moment': 'moment',
    '--theme': 'text',
    '--color-by': 'text',
    '--rules': 'text',
  },
  segments: { ...DECODE_FLAGS, '--device': 'device', '--moment': 'moment', '--bytes': 'switch' },
  top: {
    ...DECODE_FLAGS,
    ...TIMELINE_FLAG,
    '--device': 'device',
    '--moment': 'moment',
    '--by': 'text',
    '--grep': 'text',
    '--rules': 'text',
    '--limit': 'integer',
    '--json': 'switch',
    '--folded': 'text',
    '--bytes': 'switch',
  },
  steps: {
    ...DECODE_FLAGS,
    ...TIMELINE_FLAG,
    '--device': 'device',
    '--by': 'text',
    '--rules': 'text',
    '--json': 'switch',
    '--bytes': 'switch',
  },
  ranks: { ...MEMORY_FLAG, '--json': 'switch', '--bytes': 'switch' },
  serve: { '--port': 'integer', '--host': 'text' },
  html: {
    ...DECODE_FLAGS,
    '--output': 'text',
    '-o': 'text',
    '--device': 'device',
    '--moment': 'moment',
    '--view': 'text',
  },
  diff: {
    ...DECODE_FLAGS,
    '--device': 'device',
    '--device-b': 'device',
    '--moment': 'moment',
    '--align': 'text',
    '--phase': 'text',
    '--by': 'text',
    '--rules': 'text',
    '--limit': 'integer',
    '--json': 'switch',
    '--bytes': 'switch',
  },
};

const DEFAULTS: Record<Command, Record<string, unknown>> = {
  summary: { maxMemory: null, device: null, json: false, top: 10, bytes: false, timings: false },
  report: { maxMemory: null, device: null, json: null },
  render: {
    maxMemory: null,
    png: null,
    svg: null,
    view: 'timeline',
    width: 1600,
    height: 900,
    scale: 1,
    device: null,
    moment: null,
    theme: 'light',
    colorBy: 'stack',
    rules: null,
  },
  segments: { maxMemory: null, device: null, moment: null, bytes: false },
  top: {
    maxMemory: null,
    device: null,
    moment: null,
    by: 'frame',
    grep: null,
    rules: null,
    limit: 20,
    json: false,
    folded: null,
    bytes: false,
  },
  steps: { maxMemory: null, device: null, by: 'frame', rules: null, json: false, bytes: false },
  ranks: { maxMemory: null, json: false, bytes: false },
  serve: { port: DEFAULT_SERVE_PORT, host: '127.0.0.1' },
  html: { maxMemory: null, output: '', device: null, moment: null, view: null },
  diff: {
    maxMemory: null,
    device: null,
    deviceB: null,
    moment: 'peak',
    align: 'phases',
    phase: null,
    by: 'frame',
    rules: null,
    limit: 20,
    json: false,
    bytes: false,
  },
};

const SCHEMAS = {
  summary: summaryOptionsSchema,
  report: reportOptionsSchema,
  render: renderOptionsSchema,
  segments: segmentsOptionsSchema,
  top: topOptionsSchema,
  steps: stepsOptionsSchema,
  diff: diffOptionsSchema,
  ranks: ranksOptionsSchema,
  serve: serveOptionsSchema,
  html: htmlOptionsSchema,
} as const;

export function parseCliOptions(argv: readonly string[]): CliOptions {
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') {
    return { command: 'help' };
  }
  const [commandName, ...rest] = argv;
  if (commandName === 'mcp') {
    // Its questions come as tool calls on standard input, each with its own arguments.
    if (rest.length > 0) throw new UsageError(`mcp takes no arguments, got ${rest.join(' ')}`);
    return { command: 'mcp' };
  }
  if (!(COMMANDS as readonly string[]).includes(commandName!))
    throw new UsageError(
      `unknown command '${commandName}' (expected: ${[...COMMANDS, 'mcp'].join(', ')})`,
    );
  const command = commandName as Command;
  const flags = FLAGS[command];
  const positional: string[] = [];
  const raw: Record<string, unknown> = { command, ...DEFAULTS[command] };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const [flag, inlineValue] =
      arg.startsWith('--') && arg.includes('=') ? splitOnce(arg) : [arg, undefined];
    const kind = flags[flag];
    if (kind === undefined) {
      if (arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option ${flag}`);
      positional.push(arg);
      continue;
    }
    // --color-by is the option colorBy; -o is --output.
    const key = (flag === '-o' ? 'output' : flag.slice(2)).replace(
      /-([a-z])/g,
      (_m, letter: string) => letter.toUpperCase(),
    );
    if (kind === 'switch') {
      if (inlineValue !== undefined) throw new UsageError(`${flag} takes no value`);
      raw[key] = true;
      continue;
    }
    let text = inlineValue;
    if (text === undefined) {
      // `report FILE --json` at the end means stdout.
      if (kind === 'optional-text' && i === rest.length - 1) text = '-';
      else text = rest[++i];
    }
    if (text === undefined) throw new UsageError(`${flag} needs a value`);
    raw[key] = flagValue(flag, kind, text);
  }
  if (command === 'ranks') {
    if (positional.length === 0) throw new UsageError('ranks needs a DIR or FILES');
    return parseOrThrow(command, { ...raw, files: positional });
  }
  if (command === 'serve') {
    if (positional.length === 0) throw new UsageError('serve needs a FILE or DIR');
    return parseOrThrow(command, { ...raw, paths: positional });
  }
  // diff compares two files; every other command reads one.
  const files = command === 'diff' ? 2 : 1;
  if (positional.length !== files) {
    const wanted = files === 2 ? 'two FILEs (A B)' : 'one FILE';
    throw new UsageError(
      positional.length === 0
        ? `${command} needs ${files === 2 ? 'two FILEs (A B)' : 'a FILE'}`
        : `${command} takes ${wanted}, got ${positional.length} (${positional.join(', ')})`,
    );
  }
  const options = parseOrThrow(
    command,
    files === 2
      ? { ...raw, fileA: positional[0], fileB: positional[1] }
      : { ...raw, file: positional[0] },
  );
  if (options.command === 'diff') checkDiffAlignment(options, 'align' in given(rest, flags));
  return options;
}

/** The flags written on the command line (not the defaults), by option name. */
function given(rest: readonly string[], flags: Record<string, FlagKind>): Record<string, true> {
  const names: Record<string, true> = {};
  for (const arg of rest) {
    const flag = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    if (flags[flag] !== undefined) names[flag.slice(2)] = true;
  }
  return names;
}

/** --align and --phase choose which peaks to compare: they contradict another moment. */
function checkDiffAlignment(options: DiffCliOptions, alignGiven: boolean): void {
  if (options.moment !== 'peak' && (alignGiven || options.phase !== null))
    throw new UsageError(
      `${options.phase !== null ? '--phase' : '--align'} chooses which peaks to compare; it does not go with --moment ${options.moment}`,
    );
  if (options.align === 'peaks' && options.phase !== null)
    throw new UsageError('--phase compares matched phases; it does not go with --align peaks');
}

/** The options through the command's schema, or a usage error naming the flag. */
function parseOrThrow(command: Command, raw: Record<string, unknown>): CliOptions {
  const parsed = SCHEMAS[command].safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path[0];
    const message = issue?.message ?? 'invalid';
    const flagName = String(path).replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
    throw new UsageError(path === undefined ? message : `--${flagName}: ${message}`);
  }
  return parsed.data;
}

function splitOnce(arg: string): [string, string] {
  const at = arg.indexOf('=');
  return [arg.slice(0, at), arg.slice(at + 1)];
}

function flagValue(flag: string, kind: FlagKind, text: string): unknown {
  switch (kind) {
    case 'integer':
      return integerArgument(flag, text);
    case 'device':
      // `host`: the pinned host memory of host_segments / host_traces (HOST_DEVICE).
      if (text === 'host') return -1;
      // `cpu`: the CPU memory of a profiler trace (CPU_DEVICE).
      if (text === 'cpu') return -2;
      if (!/^\d+$/.test(text))
        throw new UsageError(`${flag} takes a device number, host or cpu, got '${text}'`);
      return Number(text);
    case 'number':
      if (!/^\d+(\.\d+)?$/.test(text))
        throw new UsageError(`${flag} takes a number, got '${text}'`);
      return Number(text);
    case 'size': {
      const bytes = parseByteSize(text);
      if (bytes === null)
        throw new UsageError(`${flag} takes a size such as 8G, 512M or 1.5G, got '${text}'`);
      return bytes;
    }
    case 'moment':
      if (text === 'final' || text === 'peak' || text === 'oom') return text;
      if (!/^-?\d+$/.test(text))
        throw new UsageError(
          `${flag} takes an event index (-1 or more) or final, peak or oom, got '${text}'`,
        );
      return Number(text);
    default:
      return text;
  }
}

function integerArgument(flag: string, text: string): number {
  if (!/^\d+$/.test(text)) throw new UsageError(`${flag} takes a whole number, got '${text}'`);
  return Number(text);
}
