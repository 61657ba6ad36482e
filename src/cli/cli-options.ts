// Command-line parsing: argv in, validated options out (zod at the boundary), or a usage error.

import { z } from 'zod';

export const USAGE = `allocscope: where did the GPU memory go? (PyTorch CUDA memory snapshots)

usage:
  allocscope summary FILE [--device N] [--json] [--top K] [--bytes] [--timings]

  FILE        a snapshot from torch.cuda.memory._dump_snapshot(): .pickle / .pkl,
              gzip-compressed (.gz), or the HTML page of torch.cuda._memory_viz trace_plot
  --device N  only device N
  --json      print one JSON document (schema allocscope.summary/1) to stdout
  --top K     list the K largest allocations alive at the active peak (default 10)
  --bytes     show exact byte counts beside human units
  --timings   print decode/analysis timings and peak memory to stderr

exit status: 0 ok, 2 bad input or usage`;

export class UsageError extends Error {
  override name = 'UsageError';
}

const summaryOptionsSchema = z.object({
  command: z.literal('summary'),
  file: z.string().min(1),
  device: z.number().int().nonnegative().nullable(),
  json: z.boolean(),
  top: z.number().int().nonnegative().max(100_000),
  bytes: z.boolean(),
  timings: z.boolean(),
});

export type SummaryCliOptions = z.infer<typeof summaryOptionsSchema>;
export type CliOptions = SummaryCliOptions | { command: 'help' };

export function parseCliOptions(argv: readonly string[]): CliOptions {
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') {
    return { command: 'help' };
  }
  const [command, ...rest] = argv;
  if (command !== 'summary')
    throw new UsageError(`unknown command '${command}' (expected: summary)`);
  const positional: string[] = [];
  const raw = {
    command,
    device: null as number | null,
    json: false,
    top: 10,
    bytes: false,
    timings: false,
  };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const [flag, inlineValue] =
      arg.startsWith('--') && arg.includes('=') ? arg.split('=', 2) : [arg, undefined];
    const value = (): string => {
      const next = inlineValue ?? rest[++i];
      if (next === undefined) throw new UsageError(`${flag} needs a value`);
      return next;
    };
    switch (flag) {
      case '--json':
        raw.json = true;
        break;
      case '--bytes':
        raw.bytes = true;
        break;
      case '--timings':
        raw.timings = true;
        break;
      case '--device':
        raw.device = integerArgument('--device', value());
        break;
      case '--top':
        raw.top = integerArgument('--top', value());
        break;
      default:
        if (arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option ${arg}`);
        positional.push(arg);
    }
  }
  if (positional.length !== 1) {
    throw new UsageError(
      positional.length === 0
        ? 'summary needs a FILE'
        : `summary takes one FILE, got ${positional.length}`,
    );
  }
  const parsed = summaryOptionsSchema.safeParse({ ...raw, file: positional[0] });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(`--${String(issue?.path[0] ?? 'option')}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

function integerArgument(flag: string, text: string): number {
  if (!/^\d+$/.test(text)) throw new UsageError(`${flag} takes a whole number, got '${text}'`);
  return Number(text);
}
