// Counts in words: "1 step", "2 steps", "1 free has", "3 frees have". One rule for every message
// of the app and the CLI, so that no text says "1 frees have no alloc".

import { groupDigits } from '../errors/unreadable-input';

/** The noun for this count: the singular for exactly 1, else the plural (`${singular}s` unless
 *  given: "entry" → "entries"). */
export function nounFor(count: number, singular: string, pluralForm = `${singular}s`): string {
  return count === 1 ? singular : pluralForm;
}

/** The count (digits grouped: 12,345) and its noun: "1 step", "0 steps", "12,345 entries". */
export function countOf(count: number, singular: string, pluralForm?: string): string {
  return `${groupDigits(count)} ${nounFor(count, singular, pluralForm)}`;
}
