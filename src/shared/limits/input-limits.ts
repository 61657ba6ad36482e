// The limits every reader of a snapshot's bytes applies, whatever its form (the pickle, the JSON
// form; later a profiler's JSON trace), in the same words: no count, nesting or length the file
// declares drives work or memory that the bytes read cannot justify. Each limit is far above what
// real files hold. The readers keep their own counters on their hot paths and ask here for the
// rule and the words.

import { groupDigits } from '../errors/unreadable-input';

/** Containers (lists, dicts, tuples) allowed whatever the size of the file. */
export const MIN_CONTAINER_BUDGET = 1 << 18;
/**
 * Bytes of file per container beyond MIN_CONTAINER_BUDGET. An empty list is one byte of pickle
 * (two of JSON) and ~100 bytes of memory; real snapshots take 16 bytes or more of file for each,
 * in either form.
 */
export const BYTES_PER_CONTAINER = 8;

/** Containers nested this deep. Python itself cannot pickle past ~1,000 levels. */
export const MAX_NESTING_DEPTH = 4096;

/** One string or bytes value. The longest strings of a snapshot are file names and metadata. */
export const MAX_PAYLOAD_BYTES = 64 << 20;

/** What the file should be, in refusals: "a memory snapshot", then "a snapshot" in the same line. */
export interface DocumentWords {
  readonly name: string;
  readonly shortName: string;
}

export const MEMORY_SNAPSHOT: DocumentWords = {
  name: 'a memory snapshot',
  shortName: 'a snapshot',
};

/** How many containers `bytesRead` bytes of file justify. */
export function containerBudgetAt(bytesRead: number): number {
  return Math.max(MIN_CONTAINER_BUDGET, Math.floor(bytesRead / BYTES_PER_CONTAINER));
}

/**
 * The refusal when containers outrun the budget; `containers` names them in the form's words
 * ("lists, dicts and tuples").
 */
export function tooManyContainers(containers: string, document = MEMORY_SNAPSHOT): string {
  return `more ${containers} than ${document.name} holds (past the first ${groupDigits(MIN_CONTAINER_BUDGET)}, ${document.shortName} takes ${BYTES_PER_CONTAINER} bytes or more of file for each)`;
}

/** The refusal when containers nest deeper than MAX_NESTING_DEPTH; `what`: "the pickle". */
export function nestedTooDeep(what: string, document = MEMORY_SNAPSHOT): string {
  return `${what} is nested more than ${groupDigits(MAX_NESTING_DEPTH)} levels deep; ${document.name} is nested a few levels`;
}

/** What follows a value's length when it is over MAX_PAYLOAD_BYTES. */
export function payloadTooLong(document = MEMORY_SNAPSHOT): string {
  return `no field of ${document.name} is longer than ${groupDigits(MAX_PAYLOAD_BYTES)} bytes`;
}
