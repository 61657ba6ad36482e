#!/usr/bin/env python3
"""Independent brute-force reference for the allocator state at a moment of the trace.

Usage: python3 test/reference/state_reference.py FILE --device N --event E [--event E ...]

Prints one JSON document:
  {"device": N, "states": [{"event": E, "reserved": .., "active": .., "block_bytes": ..,
     "cached_free": .., "largest_free": .., "free_blocks": ..,
     "groups": [{"pool": "0,0", "stream": <raw cudaStream_t>, "segment_type": "large"|"small",
                 "reserved": .., "cached_free": .., "largest_free": .., "free_blocks": ..}, ...],
     "live": [{"address": .., "requested": .., "size": .., "state": "allocated"|"pending"}, ...]}]}

"The state after event E" (E = -1: before the first entry). Computed the slow, obvious way:
start from the final `segments` and undo the trace entries after E one by one, keeping a dict of
live blocks (address -> requested bytes, block bytes, state) and a list of mapped address ranges;
then cut each segment at its live blocks and measure the holes. Standard library only; written
without looking at the TypeScript implementation.

Readings:
- Block bytes: the recorded `size` for blocks alive at the end; for any other allocation the
  allocator's rounding of its requested bytes (multiple of 512, at least 512; the files this is
  used on have roundup_power2_divisions all 0, which the script checks), plus the free space up
  to the next live block (or the segment end) when the allocator would not have split that
  remainder off (should_split: < 512 bytes in small or expandable segments, <= 1 MiB in large
  ones). A block reaching past the next live block is cut there.
- Undo `free_completed` A: A becomes a pending-free block; undo `free_requested` A: A becomes
  allocated (created when the trace has no `free_completed` at all); undo `free`: allocated;
  undo `alloc` A: A disappears.
- Undo `segment_alloc` A: the segment at A disappears; undo `segment_free` A S: a segment
  [A, A+S) reappears (stream of the entry, default pool, 'small' when S == 2 MiB else 'large').
  Undo `segment_map` A S: [A, A+S) is no longer mapped; undo `segment_unmap` A S: it is mapped
  again, with the attributes of the segment of the same expandable range (stream, pool, type).
- Expandable ranges that touch and share stream, pool and type form one segment (the allocator
  merges free blocks across them); cudaMalloc segments never merge.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summary_reference import blocks_with_addresses, load_snapshot  # noqa: E402

MiB = 1024 * 1024


def round_size(n):
    return 512 if n < 512 else (n + 511) // 512 * 512


def pool_name(seg):
    pool = seg.get("segment_pool_id", (0, 0))
    if not isinstance(pool, (tuple, list)) or len(pool) == 0:
        pool = (0, 0)
    return ",".join(str(x) for x in pool)


def should_split(remaining, seg):
    """The allocator splits a free block for a request when the remainder is worth keeping: at
    least 512 bytes in the small pool and in expandable segments, more than 1 MiB in the large
    pool (max_split_size unlimited). Otherwise the block keeps the remainder."""
    if remaining <= 0:
        return True
    if seg.seg_type == "small" or seg.expandable:
        return remaining >= 512
    return remaining > MiB


class Range:
    __slots__ = ("start", "end", "stream", "pool", "seg_type", "expandable")

    def __init__(self, start, end, stream, pool, seg_type, expandable):
        self.start, self.end = start, end
        self.stream, self.pool, self.seg_type, self.expandable = stream, pool, seg_type, expandable

    def key(self):
        return (self.stream, self.pool, self.seg_type)


def states_at(snapshot, device, events):
    settings = snapshot.get("allocator_settings") or {}
    divisions = settings.get("roundup_power2_divisions") or {}
    if isinstance(divisions, dict):
        assert all(v in (0, 1) for v in divisions.values()), "roundup_power2_divisions not supported"
    segments = [s for s in snapshot.get("segments", []) if s.get("device", 0) == device]
    traces = snapshot.get("device_traces", snapshot.get("traces", []))
    trace = traces[device] if device < len(traces) else []
    two_phase = any(e.get("action") == "free_completed" for e in trace)

    ranges = []
    live = {}
    for seg in segments:
        ranges.append(Range(seg["address"], seg["address"] + seg["total_size"], seg["stream"],
                            pool_name(seg), seg.get("segment_type", "large"),
                            bool(seg.get("is_expandable", False))))
        for address, block in blocks_with_addresses(seg):
            if block["state"] == "active_allocated":
                live[address] = [block["requested_size"], block["size"], "allocated", False]
            elif block["state"] == "active_pending_free":
                live[address] = [block["requested_size"], block["size"], "pending", False]

    def neighbour_of(start, end):
        for r in ranges:
            if r.expandable and (r.end == start or r.start == end):
                return r
        return None

    out = {}
    wanted = sorted(set(events), reverse=True)
    i = len(trace) - 1
    for event in wanted:
        while i > event:
            e = trace[i]
            action = e.get("action")
            a = e.get("addr", 0)
            s = e.get("size", 0)
            if action == "alloc":
                live.pop(a, None)
            elif action == "free_completed":
                live[a] = [s, round_size(s), "pending", True]
            elif action == "free_requested":
                if two_phase:
                    if a in live:
                        live[a][2] = "allocated"
                    else:
                        live[a] = [s, round_size(s), "allocated", True]
                else:
                    live[a] = [s, round_size(s), "allocated", True]
            elif action == "free":
                live[a] = [s, round_size(s), "allocated", True]
            elif action == "segment_alloc":
                ranges = [r for r in ranges if r.start != a]
            elif action == "segment_free":
                ranges.append(Range(a, a + s, e.get("stream", 0), "0,0",
                                    "small" if s == 2 * MiB else "large", False))
            elif action == "segment_map":
                # the range may span several mapped pieces (mapped again after an unmap)
                kept, removed = [], 0
                for r in ranges:
                    lo, hi = max(r.start, a), min(r.end, a + s)
                    if lo >= hi:
                        kept.append(r)
                        continue
                    removed += hi - lo
                    if r.start < lo:
                        kept.append(Range(r.start, lo, r.stream, r.pool, r.seg_type, r.expandable))
                    if hi < r.end:
                        kept.append(Range(hi, r.end, r.stream, r.pool, r.seg_type, r.expandable))
                assert removed == s, f"segment_map {i} outside mapped memory"
                ranges = kept
            elif action == "segment_unmap":
                n = neighbour_of(a, a + s)
                if n is not None:
                    ranges.append(Range(a, a + s, n.stream, n.pool, n.seg_type, True))
                else:
                    ranges.append(Range(a, a + s, e.get("stream", 0), "0,0",
                                        "small" if s == 2 * MiB else "large", True))
            i -= 1
        out[event] = figures(ranges, live)
    return [dict(event=event, **out[event]) for event in events]


def figures(ranges, live):
    # segments: expandable ranges that touch and share attributes are one segment
    ordered = sorted(ranges, key=lambda r: r.start)
    segments = []
    for r in ordered:
        last = segments[-1] if segments else None
        if (last is not None and last.expandable and r.expandable and last.end == r.start
                and last.key() == r.key()):
            last.end = r.end
        else:
            segments.append(Range(r.start, r.end, r.stream, r.pool, r.seg_type, r.expandable))
    blocks = sorted(live.items())
    groups = {}
    total = {"reserved": 0, "active": 0, "block_bytes": 0, "cached_free": 0, "largest_free": 0,
             "free_blocks": 0}
    bi = 0
    block_size = {}  # address -> block bytes after the split rule and the cut
    for seg in segments:
        g = groups.setdefault(seg.key(), {"pool": seg.pool, "stream": seg.stream,
                                          "segment_type": seg.seg_type, "reserved": 0,
                                          "cached_free": 0, "largest_free": 0, "free_blocks": 0})
        g["reserved"] += seg.end - seg.start
        total["reserved"] += seg.end - seg.start
        while bi < len(blocks) and blocks[bi][0] < seg.start:
            bi += 1
        pos = seg.start
        holes = []
        while bi < len(blocks) and blocks[bi][0] < seg.end:
            address, (requested, size, _state, estimated) = blocks[bi]
            if address > pos:
                holes.append(address - pos)
            limit = seg.end
            if bi + 1 < len(blocks) and blocks[bi + 1][0] < seg.end:
                limit = max(address, blocks[bi + 1][0])
            if estimated and not should_split(limit - address - size, seg):
                size = limit - address
            end = min(address + size, limit)
            block_size[address] = end - address
            total["active"] += requested
            total["block_bytes"] += end - address
            pos = max(pos, end)
            bi += 1
        if seg.end > pos:
            holes.append(seg.end - pos)
        for h in holes:
            for target in (g, total):
                target["cached_free"] += h
                target["largest_free"] = max(target["largest_free"], h)
                target["free_blocks"] += 1
    result = dict(total)
    result["groups"] = sorted(groups.values(), key=lambda g: (-g["reserved"], g["pool"],
                                                              g["stream"], g["segment_type"]))
    result["live"] = [{"address": a, "requested": r, "size": block_size.get(a, s), "state": st}
                      for a, (r, s, st, _e) in blocks]
    return result


def main(argv):
    args = argv[1:]
    if not args:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    path = args[0]
    device = 0
    events = []
    k = 1
    while k < len(args):
        if args[k] == "--device":
            device = int(args[k + 1])
            k += 2
        elif args[k] == "--event":
            events.append(int(args[k + 1]))
            k += 2
        else:
            print(f"unknown argument {args[k]}", file=sys.stderr)
            return 2
    snapshot, _protocol = load_snapshot(path)
    if isinstance(snapshot, list):
        snapshot = {"segments": snapshot}
    json.dump({"device": device, "states": states_at(snapshot, device, events)}, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
