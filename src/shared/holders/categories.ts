// What each allocation is, in the words people reason about an OOM with: parameters, gradients,
// optimizer state, activations (saved for backward), temporaries, autograd's other buffers, or
// unknown. A file written by PyTorch's profile_plot names the category itself (`category`, from
// torch/profiler/_memory_profiler.py's Category: PARAMETER, GRADIENT, OPTIMIZER_STATE,
// ACTIVATION, TEMPORARY, AUTOGRAD_DETAIL, INPUT); otherwise ordered rules over the stack and the
// lifetime decide (./category-rules.ts: the built-in rules are a rules file like any other).

import { DISTINCT_COLORS, NEUTRAL_COLOR } from '../chart/band-colors';

export const CATEGORIES = [
  'parameter',
  'gradient',
  'optimizer_state',
  'activation',
  'temporary',
  'autograd_other',
  'unknown',
] as const;

export type Category = (typeof CATEGORIES)[number];

/**
 * The colour of each category wherever one is drawn (the timeline coloured by category, the
 * categories chart): distinct palette entries, and the neutral fill for "unknown".
 */
export const CATEGORY_COLOR_INDEX: Readonly<Record<Category, number>> = {
  parameter: DISTINCT_COLORS[0]!,
  gradient: DISTINCT_COLORS[1]!,
  optimizer_state: DISTINCT_COLORS[2]!,
  activation: DISTINCT_COLORS[7]!,
  temporary: DISTINCT_COLORS[5]!,
  autograd_other: DISTINCT_COLORS[3]!,
  unknown: NEUTRAL_COLOR,
};

/** The words every view, export and CLI text uses for a category. */
export const CATEGORY_NAMES: Readonly<Record<Category, string>> = {
  parameter: 'parameters',
  gradient: 'gradients',
  optimizer_state: 'optimizer state',
  activation: 'activations',
  temporary: 'temporaries',
  autograd_other: 'autograd / other',
  unknown: 'unknown',
};

const MAX_CATEGORY_TEXT = 64;

/**
 * A category as a file writes it ("PARAMETER", "optimizer state", "Category.GRADIENT", "unknown"),
 * or null when it is none of ours. INPUT and AUTOGRAD_DETAIL are "autograd / other".
 */
export function categoryOfFileText(text: string): Category | null {
  // The longest of the words below, with "Category." and some spaces: a longer text is none.
  if (text.length > MAX_CATEGORY_TEXT) return null;
  const word = text
    .trim()
    .toLowerCase()
    .replace(/^category\./, '')
    .replace(/[\s-]+/g, '_');
  switch (word) {
    case 'parameter':
    case 'parameters':
      return 'parameter';
    case 'gradient':
    case 'gradients':
      return 'gradient';
    case 'optimizer_state':
      return 'optimizer_state';
    case 'activation':
    case 'activations':
      return 'activation';
    case 'temporary':
    case 'temporaries':
      return 'temporary';
    case 'autograd_detail':
    case 'input':
    case 'autograd_other':
      return 'autograd_other';
    // PyTorch's memory timeline writes None as "unknown": its verdict that the tensor is none of
    // the others, which no rule overrules (a rule would guess from a lifetime PyTorch has seen).
    case 'unknown':
      return 'unknown';
    default:
      return null;
  }
}
