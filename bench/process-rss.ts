// The memory of a browser the bench started: every process under this one, sampled from /proc.

import { readdirSync, readFileSync } from 'node:fs';

/** The resident memory of every process under `root` (Linux /proc; 0 elsewhere). */
export function descendantsRss(root: number): number {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return 0;
  }
  for (const name of entries) {
    try {
      const status = readFileSync(`/proc/${name}/status`, 'utf8');
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]);
      const kib = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
      const pid = Number(name);
      rss.set(pid, kib * 1024);
      children.set(ppid, [...(children.get(ppid) ?? []), pid]);
    } catch {
      // gone meanwhile
    }
  }
  let total = 0;
  const queue = [...(children.get(root) ?? [])];
  while (queue.length > 0) {
    const pid = queue.pop()!;
    total += rss.get(pid) ?? 0;
    queue.push(...(children.get(pid) ?? []));
  }
  return total;
}
