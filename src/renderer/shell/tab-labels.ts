// Tab labels that keep what tells open files apart. Runs of one experiment differ in the middle
// or near the end (`..._ctx128_...`, `..._ctx512_...`), and cutting a long name from the end
// leaves eight tabs that look alike. A label keeps the name's start, the part where it differs
// from the most similar other open name, and its end (the extension and a run suffix), with "…"
// for what is left out (28 characters fit a tab at its full width); the full name is in the tab's
// tooltip.

const ELLIPSIS = '…';

/** The label for each name, at most `max` characters (names that fit are kept whole). */
export function tabLabels(names: readonly string[], max = 28): string[] {
  return names.map((name, index) => {
    if (name.length <= max) return name;
    const others = names.filter((other, j) => j !== index && other !== name);
    // Where this name starts and stops differing from the most similar other name.
    let start = Math.floor(name.length / 2);
    let end = start;
    if (others.length > 0) {
      start = Math.max(...others.map((other) => commonPrefixLength(name, other)));
      end = name.length - Math.max(...others.map((other) => commonSuffixLength(name, other)));
      if (end <= start) end = Math.min(name.length, start + 1);
    }
    return labelAround(name, start, end, max);
  });
}

/** `name` cut to `max` characters keeping its head, [start, end) with some context, and its tail. */
function labelAround(name: string, start: number, end: number, max: number): string {
  const budget = max - 2; // room for two ellipses
  const head = Math.min(8, Math.floor(budget / 4));
  const tail = Math.min(12, Math.floor(budget / 3));
  const middleRoom = budget - head - tail;
  // The differing part with a little context either side, inside what head and tail leave.
  let from = Math.max(head, start - 3);
  let to = Math.min(name.length - tail, end + 3);
  if (to - from > middleRoom) to = from + middleRoom;
  if (to <= from) {
    // The difference is inside the head or the tail: a plain middle cut shows it.
    const keepHead = Math.ceil((max - 1) / 2);
    return name.slice(0, keepHead) + ELLIPSIS + name.slice(name.length - (max - 1 - keepHead));
  }
  // Grow the middle towards the head and tail while there is room (fewer ellipses to read).
  const spare = middleRoom - (to - from);
  from = Math.max(head, from - Math.floor(spare / 2));
  to = Math.min(name.length - tail, to + (middleRoom - (to - from)));
  const parts = [name.slice(0, head)];
  parts.push(from > head ? ELLIPSIS : '');
  parts.push(name.slice(from, to));
  parts.push(to < name.length - tail ? ELLIPSIS : '');
  parts.push(name.slice(name.length - tail));
  return parts.join('');
}

const SEPARATOR = /[_\-. ]/;

/**
 * Where each label starts to tell it apart from the others, back to the start of that word
 * (`trainer_rank_3.pickle` among other ranks: 8, "rank_3.pickle"); 0 when nothing is shared. A
 * tab too narrow for its label gives up the part before it first (tab-strip.tsx), so eight ranks'
 * tabs read "tra…rank_3.pickle", not eight times "trainer_ra…".
 */
export function distinctiveStarts(labels: readonly string[]): number[] {
  return labels.map((label, index) => {
    const others = labels.filter((other, j) => j !== index && other !== label);
    if (others.length === 0) return 0;
    const shared = Math.max(...others.map((other) => commonPrefixLength(label, other)));
    let start = shared - 1;
    while (start > 0 && !SEPARATOR.test(label[start - 1]!)) start--;
    return Math.max(0, start);
  });
}

function commonPrefixLength(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

function commonSuffixLength(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}
