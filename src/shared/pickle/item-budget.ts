// Items put into lists, dicts (key/value pairs) and tuples, held to what the bytes read justify.
// NONE is one byte of file and a list item 8 bytes of memory (more while the list grows), so
// without a bound a gzip of 137 KB (MARK, 100,000 NONE, APPENDS, again and again) builds a list
// too long for V8 and the process dies. Every item of a snapshot takes 2 bytes of file or more: a
// reference to a memoized frame or string (BINGET, 2 bytes; LONG_BINGET, 5), an integer (BININT1,
// 2), a string or a dict; the real files measured take 3.2 to 27 bytes per item over the file,
// most of them in frames lists. Trace entries consumed into columns are not items.
//
// The generic path and the fast path (flat-dict-reader.ts) count the same items at the same
// opcodes (APPEND, APPENDS, TUPLE1-3 of a trace entry's frames list, forward_frames and pool_id),
// so the refusal and its byte offset are the same whichever path ran, at any chunking.

import { groupDigits } from '../errors/unreadable-input';
import { PickleError } from './pickle-error';

/**
 * Items allowed whatever the size of the file (8 MiB of list slots): slack only, since no item of
 * a snapshot takes less than BYTES_PER_ITEM.
 */
export const MIN_ITEM_BUDGET = 1 << 20;
/** Bytes of file per item beyond MIN_ITEM_BUDGET. */
export const BYTES_PER_ITEM = 2;

export class ItemBudget {
  /** Items made so far. */
  private count = 0;
  /** The budget when last computed: bytes read only grow, so it holds until exceeded. */
  private limit: number;

  /** `floor`: MIN_ITEM_BUDGET but in tests. */
  constructor(private readonly floor = MIN_ITEM_BUDGET) {
    this.limit = floor;
  }

  /** Items made so far. */
  get made(): number {
    return this.count;
  }

  /** `items` more were made by the opcode that ends at `bytesRead`. */
  add(items: number, bytesRead: number): void {
    if (this.count + items > this.limit) this.check(items, bytesRead);
    this.count += items;
  }

  /**
   * As add(), for items the fast path has read but may still give up on (the generic path then
   * reads them again): refuses as add() would, without counting them.
   */
  check(pending: number, bytesRead: number): void {
    const count = this.count + pending;
    if (count <= this.limit) return;
    this.limit = Math.max(this.floor, Math.floor(bytesRead / BYTES_PER_ITEM));
    if (count <= this.limit) return;
    throw new PickleError(
      `more items in lists, dicts and tuples than a memory snapshot holds (past the first ${groupDigits(this.floor)}, a snapshot takes ${BYTES_PER_ITEM} bytes or more of file for each)`,
      bytesRead - 1,
    );
  }

  /** The fast path kept the items it checked. */
  commit(items: number): void {
    this.count += items;
  }
}
