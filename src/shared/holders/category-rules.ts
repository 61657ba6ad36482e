// Rules that put allocations into categories (./categories.ts): an ordered list, the first rule
// whose conditions all hold decides; no rule, "unknown". The file's own `category` comes first
// when it has one. The built-in rules (DEFAULT_CATEGORY_RULES, documented in
// docs/categories.md) are a rules file like the ones users load in the app or pass to the CLI
// with --rules FILE, read through the same schema.

import { z } from 'zod';
import { formatBytes } from '../format/units';
import { compileUserRegex, MAX_PATTERN_CHARS, type UserRegex } from '../format/user-regex';
import { wordEnd } from '../format/word-chars';
import { CATEGORIES, type Category } from './categories';

export const CATEGORY_RULES_SCHEMA = 'allocscope.category-rules/1';

/**
 * Largest rules file read (the CLI's --rules, the app's Load rules…). The built-in rules are 2 KiB
 * and a file of 1,000 rules (the schema's most) with 100-character patterns is about 150 KiB; a
 * larger file is refused from its size, before it is read, and no more than this is ever read.
 */
export const MAX_RULES_FILE_BYTES = 1 << 20;

/**
 * Why a rules file of `bytes` is refused, or null when its size is fine. `bytes` is its size, or
 * (`readPast`) the bytes read from a file that held more than its size said.
 */
export function rulesFileSizeProblem(bytes: number, readPast = false): string | null {
  if (bytes <= MAX_RULES_FILE_BYTES) return null;
  const limit = `a rules file is at most ${formatBytes(MAX_RULES_FILE_BYTES, 0)}`;
  return readPast ? `${limit}; this one holds more` : `${limit}; this one is ${formatBytes(bytes)}`;
}

// A file's patterns run on RE2's linear-time engine (../format/user-regex.ts): a rules file from
// elsewhere cannot stall a classification with a backtracking pattern.
const regexText = z
  .string()
  .max(MAX_PATTERN_CHARS)
  .superRefine((text, context) => {
    const compiled = compileUserRegex(text);
    if (!compiled.ok) context.addIssue({ code: 'custom', message: compiled.message });
  });

const share = z.number().min(0).max(1);
const events = z.number().int().min(0);

export const categoryMatchSchema = z.strictObject({
  /** The file's own `category` text (profile_plot's files). */
  file_category: regexText.optional(),
  /** Some frame of the allocation's stack, written "filename:line name". */
  frame: regexText.optional(),
  /** The stack's label (the one rule for labels: "model.py:62 forward", "autograd: …"). */
  label: regexText.optional(),
  /** The stack runs in autograd's backward pass (an engine, Node or AccumulateGrad frame). */
  in_backward: z.boolean().optional(),
  /** Still alive at the end of the trace. */
  alive_at_end: z.boolean().optional(),
  /** Made before the trace started (its alloc entry is not in the ring buffer). */
  made_before_trace: z.boolean().optional(),
  /** Lifetime in trace entries, and as a share of the trace's entries (alive at the end: until the end). */
  min_lifetime_events: events.optional(),
  max_lifetime_events: events.optional(),
  min_lifetime_share: share.optional(),
  max_lifetime_share: share.optional(),
});

export const categoryRuleSchema = z.strictObject({
  category: z.enum(CATEGORIES),
  match: categoryMatchSchema,
  /** Why the rule is there (shown in the docs, ignored by the classifier). */
  note: z.string().max(1000).optional(),
});

export const categoryRulesSchema = z.strictObject({
  schema: z.literal(CATEGORY_RULES_SCHEMA),
  rules: z.array(categoryRuleSchema).max(1000),
});

export type CategoryMatch = z.infer<typeof categoryMatchSchema>;
export type CategoryRule = z.infer<typeof categoryRuleSchema>;
export type CategoryRules = z.infer<typeof categoryRulesSchema>;

/**
 * A frame of autograd's backward pass, by its search text ("filename:line name"): the engine, a
 * Node's apply, AccumulateGrad, torch.autograd.backward and Tensor.backward. What
 * `/torch::autograd::Engine::|torch::autograd::(generated::)?\w*Backward\w*::apply|AccumulateGrad|
 * [\\/]torch[\\/](autograd[\\/]__init__|_tensor)\.py:\d+ backward$/` says, by scans: that
 * expression retried `\w*Backward\w*` from every "Backward" of a word, quadratic in a long name.
 */
export function isBackwardFrameText(text: string): boolean {
  if (text.includes('torch::autograd::Engine::') || text.includes('AccumulateGrad')) return true;
  if (BACKWARD_PYTHON_FRAME.test(text)) return true;
  const PREFIX = 'torch::autograd::';
  for (let at = text.indexOf(PREFIX); at >= 0; at = text.indexOf(PREFIX, at + 1)) {
    let start = at + PREFIX.length;
    if (isNodeApply(text, start)) return true;
    start += 'generated::'.length;
    if (text.startsWith('generated::', at + PREFIX.length) && isNodeApply(text, start)) return true;
  }
  return false;
}

/** `\w*Backward\w*::apply` at `start`: the word there holds "Backward" and `::apply` follows it. */
function isNodeApply(text: string, start: number): boolean {
  const end = wordEnd(text, start);
  return text.startsWith('::apply', end) && text.slice(start, end).includes('Backward');
}

// Linear: tried only where a path separator (or the start: a profiler trace names PyTorch's files
// `torch/_tensor.py`, relative to site-packages) is followed by "torch", the digits end at the space.
const BACKWARD_PYTHON_FRAME =
  /(?:^|[\\/])torch[\\/]autograd[\\/]__init__\.py:\d+ backward$|(?:^|[\\/])torch[\\/]_tensor\.py:\d+ backward$/;

const TORCH_OPTIM = '(?:^|[\\\\/])torch[\\\\/]optim[\\\\/]';
const NN_MODULES = '(?:^|[\\\\/])torch[\\\\/]nn[\\\\/]';

/** The built-in rules, in order (see docs/categories.md for why each is there). */
export const DEFAULT_CATEGORY_RULES: CategoryRules = {
  schema: CATEGORY_RULES_SCHEMA,
  rules: [
    {
      category: 'gradient',
      match: { frame: 'AccumulateGrad' },
      note: "autograd accumulating a leaf's .grad: a parameter's gradient",
    },
    {
      category: 'temporary',
      match: { frame: TORCH_OPTIM, max_lifetime_share: 0.01 },
      note: 'short-lived buffers inside optimizer.step() (foreach temporaries)',
    },
    {
      category: 'optimizer_state',
      match: { frame: TORCH_OPTIM },
      note: 'made inside torch/optim (exp_avg, exp_avg_sq, momentum buffers) and kept',
    },
    {
      category: 'parameter',
      match: {
        frame: `${NN_MODULES}modules[\\\\/]module\\.py:\\d+ (_apply|to_empty|_load_from_state_dict)$`,
      },
      note: 'Module.to()/.cuda()/load_state_dict: moving or loading the weights',
    },
    {
      category: 'parameter',
      match: {
        frame: `${NN_MODULES}(modules[\\\\/]\\w+\\.py:\\d+ (__init__|reset_parameters)|parameter\\.py:\\d+ \\w+|init\\.py:\\d+ \\w+)$`,
      },
      note: 'made while a module is built (weights created on the GPU)',
    },
    {
      category: 'temporary',
      match: { max_lifetime_events: 3 },
      note: 'freed again within 3 trace entries: a buffer inside one operation or one line',
    },
    {
      category: 'autograd_other',
      match: { in_backward: true },
      note: 'other buffers of the backward pass (gradients of intermediate results)',
    },
    {
      category: 'activation',
      match: { in_backward: false, frame: ' forward$' },
      note: 'made in a forward() and kept past it: saved for backward (or returned)',
    },
  ],
};

/** Reads a rules document (a loaded rules file): the rules, or the first problem in words. */
export function parseCategoryRules(
  json: unknown,
): { ok: true; rules: CategoryRules } | { ok: false; message: string } {
  const parsed = categoryRulesSchema.safeParse(json);
  if (parsed.success) return { ok: true, rules: parsed.data };
  const issue = parsed.error.issues[0]!;
  const where = issue.path.length === 0 ? 'the document' : issue.path.join('.');
  return { ok: false, message: `${where}: ${issue.message}` };
}

/** A rule's conditions compiled once. */
export interface CompiledRule {
  readonly category: Category;
  readonly fileCategory: UserRegex | null;
  readonly frame: UserRegex | null;
  readonly label: UserRegex | null;
  readonly match: CategoryMatch;
}

export function compileRules(rules: CategoryRules): CompiledRule[] {
  const regex = (text: string | undefined): UserRegex | null => {
    if (text === undefined) return null;
    const compiled = compileUserRegex(text);
    // The rules passed the schema, which compiles every pattern the same way.
    if (!compiled.ok) throw new Error(`a rule's pattern does not compile: ${compiled.message}`);
    return compiled.regex;
  };
  return rules.rules.map((rule) => ({
    category: rule.category,
    fileCategory: regex(rule.match.file_category),
    frame: regex(rule.match.frame),
    label: regex(rule.match.label),
    match: rule.match,
  }));
}
