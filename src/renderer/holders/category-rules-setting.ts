// The categories' rules the user loaded (a rules file, docs/categories.md), kept with the page's
// settings (localStorage) and shared by every open snapshot; none: the built-in rules. What is
// stored is read back through the same schema as a file, so a stored document that no longer
// reads (edited by hand, an older schema) falls back to the built-in rules.

import { createStore, useStore } from 'zustand';
import {
  DEFAULT_CATEGORY_RULES,
  MAX_RULES_FILE_BYTES,
  parseCategoryRules,
  rulesFileSizeProblem,
  type CategoryRules,
} from '@shared/holders/category-rules';

const STORAGE_KEY = 'allocscope.categoryRules';

export interface RulesSetting {
  rules: CategoryRules;
  /** The file's name, or null for the built-in rules. */
  source: string | null;
}

const BUILT_IN: RulesSetting = { rules: DEFAULT_CATEGORY_RULES, source: null };
/** The page-wide setting (every tab reads it): a zustand store like the tabs' own state. */
const rulesStore = createStore<RulesSetting>()(() => readStored());

function readStored(): RulesSetting {
  try {
    const text = globalThis.localStorage?.getItem(STORAGE_KEY);
    if (text === null || text === undefined) return BUILT_IN;
    const stored = JSON.parse(text) as { source?: unknown; rules?: unknown };
    const parsed = parseCategoryRules(stored.rules);
    if (!parsed.ok || typeof stored.source !== 'string') return BUILT_IN;
    return { rules: parsed.rules, source: stored.source };
  } catch {
    return BUILT_IN;
  }
}

function publish(next: RulesSetting): void {
  rulesStore.setState(next, true);
  try {
    if (next.source === null) globalThis.localStorage?.removeItem(STORAGE_KEY);
    else
      globalThis.localStorage?.setItem(
        STORAGE_KEY,
        JSON.stringify({ source: next.source, rules: next.rules }),
      );
  } catch {
    // Storage refused: the rules hold for this page only.
  }
}

/**
 * Reads a rules file the user picked: null when it is taken, else one line saying what is wrong
 * with it (naming the file).
 */
export async function loadRulesFile(file: File): Promise<string | null> {
  // Refused from its size before it is read, as the CLI does; and read no further than the limit
  // whatever the file holds.
  const tooLarge = rulesFileSizeProblem(file.size);
  if (tooLarge !== null) return `${file.name}: ${tooLarge}`;
  let json: unknown;
  try {
    json = JSON.parse(await file.slice(0, MAX_RULES_FILE_BYTES).text());
  } catch (error) {
    return `${file.name}: not JSON (${error instanceof Error ? error.message : String(error)})`;
  }
  const parsed = parseCategoryRules(json);
  if (!parsed.ok) return `${file.name}: ${parsed.message}`;
  publish({ rules: parsed.rules, source: file.name });
  return null;
}

export function restoreBuiltInRules(): void {
  publish(BUILT_IN);
}

/** The rules in use now (for code outside React: the exports). */
export function currentCategoryRules(): CategoryRules {
  return rulesStore.getState().rules;
}

/** The rules in use, re-rendering when they change. */
export function useCategoryRules(): RulesSetting {
  return useStore(rulesStore);
}
