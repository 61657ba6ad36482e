#!/usr/bin/env python3
"""Independent reference implementation of `allocscope summary --json`.

Usage: python3 test/reference/summary_reference.py FILE [--top K]

Prints one `allocscope.summary/1` JSON document (see docs/summary-json.md and
docs/snapshot-format.md) for a PyTorch CUDA memory snapshot. Standard library only.
It is deliberately written without looking at the TypeScript implementation, so
that the tests can use it as an independent source of truth.

Readings chosen where docs/summary-json.md and docs/snapshot-format.md say nothing:

- Input: gzip (magic 1f 8b) is undone once; then, if the bytes do not start
  with the pickle PROTO opcode (0x80) and contain `"base64":`, the base64
  string after it is decoded (JSON escapes `\\/` and whitespace removed).
- `pickle_protocol` is null when the pickle has no PROTO opcode (protocol 0/1).
- A top-level dict with both `device_traces` and `traces` uses `device_traces`.
  Missing `segments` / traces are empty lists.
- Missing numeric fields read as 0: a segment's `device`, `address`,
  `total_size`; a block's `size`, `requested_size`; a trace entry's `size`
  and `addr` (so an alloc/freeing entry without `addr` uses address 0).
  Trace entries without `action` are counted under no action and have
  delta 0 (they still count in `trace_entries` and take an event index).
- Legacy block address = segment address + sum of the `size` of *all* blocks
  before it in the segment (whether or not those have an `address`).
- Frames: a frame dict missing `filename` / `name` gets ""; missing `line`
  gets 0; a `line` that is not an int (or is a bool), or whose absolute value
  exceeds 2**53-1, becomes -1. A block with `frames` uses them even if it also
  has `history`; a history entry without `frames` gives [].
- An allocation still open at the end of the trace keeps the `size` of its
  `alloc` entry as bytes, even if a live block at that address reports a
  different `requested_size` (the block is then not a pre-trace allocation).
- Curves: the `size` of segment_* entries is the delta; every curve is clamped
  independently (reserved and active each get their own raise and warning).
- `reserved_bytes.peak_event_index` is not part of the document (only the
  active curve has one).
- Devices: trace lists at index i that are empty do not make device i appear.
"""

import base64
import gzip
import io
import json
import os
import pickle
import re
import sys

JS_MAX_SAFE_INTEGER = 2**53 - 1
LIVE_BLOCK_STATES = ("active_allocated", "active_pending_free")


# ---------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------

class SnapshotUnpickler(pickle.Unpickler):
    """A snapshot is plain data only: refuse every class lookup."""

    def find_class(self, module, name):
        raise pickle.UnpicklingError(
            f"not a snapshot: the pickle asks for class {module}.{name}")

    def persistent_load(self, pid):
        raise pickle.UnpicklingError("not a snapshot: persistent id in pickle")


def pickle_bytes_of(raw):
    """Undo gzip and the HTML (trace_plot) wrapper; return the pickle bytes."""
    data = raw
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    if data[:1] != b"\x80" and b'"base64"' in data:
        match = re.search(rb'"base64"\s*:\s*"([^"]*)"', data)
        if match is None:
            raise ValueError("HTML page without a base64 snapshot string")
        text = match.group(1).replace(b"\\/", b"/")
        text = re.sub(rb"\s+", b"", text)
        data = base64.b64decode(text)
    return data


def load_snapshot(path):
    with open(path, "rb") as f:
        raw = f.read()
    data = pickle_bytes_of(raw)
    protocol = data[1] if len(data) >= 2 and data[0] == 0x80 else None
    snapshot = SnapshotUnpickler(io.BytesIO(data)).load()  # trailing bytes ignored
    return snapshot, protocol


# ---------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------

def output_frames(frames):
    result = []
    for frame in frames or []:
        line = frame.get("line", 0)
        if isinstance(line, bool) or not isinstance(line, int) or abs(line) > JS_MAX_SAFE_INTEGER:
            line = -1
        result.append({
            "filename": frame.get("filename", ""),
            "line": line,
            "name": frame.get("name", ""),
        })
    return result


def block_frames(block):
    if "frames" in block:
        return block["frames"]
    history = block.get("history") or []
    if history:
        return history[-1].get("frames", [])
    return []


def blocks_with_addresses(segment):
    """Yield (address, block) for every block, recomputing legacy addresses."""
    offset = 0
    for block in segment.get("blocks", []):
        if "address" in block:
            address = block["address"]
        else:
            address = segment.get("address", 0) + offset
        yield address, block
        offset += block.get("size", 0)


def make_curve(final, deltas, name, device, warnings):
    """Return (baseline, values) anchored on `final`, clamped to >= 0."""
    baseline = final - sum(deltas)
    values = []
    running = baseline
    for delta in deltas:
        running += delta
        values.append(running)
    lowest = min([baseline] + values)
    if lowest < 0:
        raise_by = -lowest
        warnings.append(
            f"device {device}: {name} curve would go down to {lowest} bytes; "
            f"the file is inconsistent, curve raised by {raise_by} bytes")
        baseline += raise_by
        values = [v + raise_by for v in values]
    return baseline, values


def peak_of(baseline, values):
    """Return (peak, index of the first entry reaching it, or -1)."""
    peak = max([baseline] + values)
    if baseline == peak:
        return peak, -1
    return peak, values.index(peak)


# ---------------------------------------------------------------------------
# One device
# ---------------------------------------------------------------------------

def summarize_device(device, segments, trace, top_k, warnings):
    n = len(trace)

    actions = {}
    for entry in trace:
        if "action" in entry:
            actions[entry["action"]] = actions.get(entry["action"], 0) + 1
    actions = {name: actions[name] for name in sorted(actions)}

    if "free_completed" in actions:
        freeing_actions = ("free_completed", "free")
    else:
        freeing_actions = ("free_requested", "free")

    # --- figures from the final state (segments) ---
    reserved_final = sum(seg.get("total_size", 0) for seg in segments)
    active_final = 0
    allocated_final = 0
    block_count = 0
    live_blocks = []  # (address, block)
    for seg in segments:
        for address, block in blocks_with_addresses(seg):
            block_count += 1
            state = block.get("state")
            if state in LIVE_BLOCK_STATES:
                active_final += block.get("requested_size", 0)
                live_blocks.append((address, block))
            if state == "active_allocated":
                allocated_final += block.get("size", 0)

    # --- curves ---
    active_deltas = []
    reserved_deltas = []
    for entry in trace:
        action = entry.get("action")
        size = entry.get("size", 0)
        if action == "alloc":
            active_deltas.append(size)
        elif action in freeing_actions:
            active_deltas.append(-size)
        else:
            active_deltas.append(0)
        if action in ("segment_alloc", "segment_map"):
            reserved_deltas.append(size)
        elif action in ("segment_free", "segment_unmap"):
            reserved_deltas.append(-size)
        else:
            reserved_deltas.append(0)

    reserved_baseline, reserved_values = make_curve(
        reserved_final, reserved_deltas, "reserved", device, warnings)
    active_baseline, active_values = make_curve(
        active_final, active_deltas, "active", device, warnings)
    reserved_peak, _ = peak_of(reserved_baseline, reserved_values)
    active_peak, peak_index = peak_of(active_baseline, active_values)

    # --- allocations: (address, bytes, alloc_event_index or None, start, end, frames) ---
    allocations = []
    open_allocs = {}  # address -> index of the open alloc entry
    unmatched_frees = 0
    ooms = []
    for i, entry in enumerate(trace):
        action = entry.get("action")
        if action == "alloc":
            address = entry.get("addr", 0)
            if address in open_allocs:
                start = open_allocs[address]
                warnings.append(
                    f"device {device}: entry {i} allocates address {address} "
                    f"which is still allocated since entry {start}")
                allocations.append((address, start, i))
            open_allocs[address] = i
        elif action in freeing_actions:
            address = entry.get("addr", 0)
            if address in open_allocs:
                allocations.append((address, open_allocs.pop(address), i))
            else:
                unmatched_frees += 1
                allocations.append((address, None, i))
        elif action == "oom":
            ooms.append({
                "event_index": i,
                "requested_bytes": entry.get("size", 0),
                "device_free_bytes": entry.get("device_free"),
            })
    for address, start in open_allocs.items():
        allocations.append((address, start, n))

    # Turn (address, alloc index or None, end) into full records.
    records = []
    for address, start, end in allocations:
        if start is None:  # a free without an alloc: made before the trace
            free_entry = trace[end]
            records.append({
                "address": address,
                "bytes": free_entry.get("size", 0),
                "alloc_event_index": None,
                "start": -1,
                "end": end,
                "frames": free_entry.get("frames", []),
            })
        else:
            alloc_entry = trace[start]
            records.append({
                "address": address,
                "bytes": alloc_entry.get("size", 0),
                "alloc_event_index": start,
                "start": start,
                "end": end,
                "frames": alloc_entry.get("frames", []),
            })
    for address, block in live_blocks:
        if address not in open_allocs:
            records.append({
                "address": address,
                "bytes": block.get("requested_size", 0),
                "alloc_event_index": None,
                "start": -1,
                "end": n,
                "frames": block_frames(block),
            })

    if unmatched_frees:
        warnings.append(
            f"device {device}: {unmatched_frees} frees without an alloc in the trace "
            f"(allocations made before the trace started)")

    live = [r for r in records if r["start"] <= peak_index < r["end"]]

    def sort_key(r):
        index = r["alloc_event_index"]
        return (-r["bytes"], r["address"], -1 if index is None else index)

    live.sort(key=sort_key)
    largest = [{
        "address": r["address"],
        "bytes": r["bytes"],
        "alloc_event_index": r["alloc_event_index"],
        "frames": output_frames(r["frames"]),
    } for r in live[:top_k]]

    return {
        "device": device,
        "trace_entries": n,
        "actions": actions,
        "segments": len(segments),
        "blocks": block_count,
        "reserved_bytes": {
            "final": reserved_final,
            "baseline": reserved_baseline,
            "peak": reserved_peak,
        },
        "active_bytes": {
            "final": active_final,
            "baseline": active_baseline,
            "peak": active_peak,
            "peak_event_index": peak_index,
        },
        "allocated_bytes": {"final": allocated_final},
        "unmatched_frees": unmatched_frees,
        "oom": ooms,
        "largest_allocations_at_peak": largest,
    }


# ---------------------------------------------------------------------------
# Whole document
# ---------------------------------------------------------------------------

def summarize(path, top_k=10):
    snapshot, protocol = load_snapshot(path)
    warnings = []

    if isinstance(snapshot, list):
        segments = snapshot
        traces = []
        warnings.append("bare list of segments (very old snapshot): no trace")
    elif isinstance(snapshot, dict):
        segments = snapshot.get("segments") or []
        if "device_traces" in snapshot:
            traces = snapshot["device_traces"] or []
        else:
            traces = snapshot.get("traces") or []
    else:
        raise ValueError(f"not a snapshot: top level is {type(snapshot).__name__}")

    segments_by_device = {}
    for seg in segments:
        segments_by_device.setdefault(seg.get("device", 0), []).append(seg)
    traces_by_device = {i: t for i, t in enumerate(traces) if t}

    devices = sorted(set(segments_by_device) | set(traces_by_device))
    summaries = [
        summarize_device(d, segments_by_device.get(d, []), traces_by_device.get(d, []),
                         top_k, warnings)
        for d in devices
    ]

    return {
        "schema": "allocscope.summary/1",
        "file": os.path.basename(path),
        "bytes": os.path.getsize(path),
        "pickle_protocol": protocol,
        "warnings": warnings,
        "devices": summaries,
    }


def main(argv):
    args = list(argv)
    top_k = 10
    if "--top" in args:
        i = args.index("--top")
        top_k = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 1:
        sys.stderr.write("usage: summary_reference.py FILE [--top K]\n")
        return 2
    doc = summarize(args[0], top_k)
    sys.stdout.write(json.dumps(doc, sort_keys=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
