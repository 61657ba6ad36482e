#!/usr/bin/env python3
"""Self-check of the synthetic snapshots written by make_snapshots.py.

Usage: python3 test/generators/check_generated.py [OUTDIR]
       (without OUTDIR, generates into a temporary directory first)

For every case in OUTDIR/manifest.json:
  - the file decodes (pickle / gzip / HTML page with the base64 pickle, NUL padding after STOP),
    carries the expected protocol, and uses only plain-data pickle opcodes;
  - stacks are shared the way real files share them (same list / dict objects), 5..40 frames deep;
  - final-state invariants: blocks tile each segment in address order, per-segment
    allocated_size / active_size / requested_size equal the sums over the blocks, segments of a
    device do not overlap, legacy blocks' last history entry sits at the block's address;
  - the trace, replayed BACKWARDS from the final state, is consistent: every alloc meets a live
    allocation of the same size at its address, every freeing entry meets a free address, segment
    entries meet existing / missing segments, and the active and reserved counters never go below 0;
  - the figures of OUTDIR/<case>.expected.json agree with what that backward replay finds
    (counts, finals, baselines, peaks, peak_event_index, unmatched frees, oom entries, and the
    allocations live at the peak with their alloc index and frames).
Exits 1 on any failure.
"""

import base64
import gzip
import json
import os
import pickletools
import pickle
import re
import subprocess
import sys
import tempfile
from collections import Counter

ALLOWED_OPS = {
    "PROTO", "FRAME", "EMPTY_DICT", "EMPTY_LIST", "EMPTY_TUPLE", "MARK", "SETITEMS", "SETITEM",
    "APPENDS", "APPEND", "STOP", "MEMOIZE", "BINGET", "LONG_BINGET", "BINPUT", "LONG_BINPUT",
    "SHORT_BINUNICODE", "BINUNICODE", "BININT1", "BININT2", "BININT", "LONG1", "LONG4", "TUPLE",
    "TUPLE1", "TUPLE2", "TUPLE3", "NEWTRUE", "NEWFALSE", "NONE", "BINFLOAT",
}
JS_MAX_SAFE = 2 ** 53 - 1
STATES = ("active_allocated", "active_pending_free", "inactive")
HTML_RE = re.compile(r'<script type="module">\nimport \{add_local_files\} from "[^"]+MemoryViz\.js"\n'
                     r'const local_files = (.*)\nadd_local_files\(local_files, \'Active Memory Timeline\'\)\n</script>')


class Failure(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Failure(msg)


def raw_pickle(path):
    data = open(path, "rb").read()
    if path.endswith(".gz"):
        return gzip.decompress(data)
    if path.endswith(".html"):
        m = HTML_RE.search(data.decode("utf-8"))
        check(m is not None, "HTML page does not have the trace_plot shape")
        files = json.loads(m.group(1))
        check(len(files) == 1 and files[0]["name"] == "snapshot.pickle", "local_files shape")
        buf = base64.b64decode(files[0]["base64"])
        check(len(buf) % 3 == 0, "padded pickle length is not a multiple of 3")
        return buf
    return data


def check_opcodes(raw):
    stop_at = None
    for op, arg, pos in pickletools.genops(raw):
        check(op.name in ALLOWED_OPS, f"opcode {op.name} not allowed")
        if op.name == "STOP":
            stop_at = pos
    tail = raw[stop_at + 1:]
    check(all(b == 0 for b in tail) and len(tail) <= 3, "unexpected bytes after STOP")
    return len(tail)


def frames_json(frames):
    out = []
    for f in frames:
        line = f["line"]
        if not (isinstance(line, int) and -JS_MAX_SAFE <= line <= JS_MAX_SAFE):
            line = -1
        out.append({"filename": f["filename"], "line": line, "name": f["name"]})
    return out


def check_sharing(stacks_seen):
    """stacks_seen: list of frames lists referenced from entries and blocks."""
    by_id = {}
    frame_ids = set()
    refs = 0
    for st in stacks_seen:
        if not st:
            continue
        by_id[id(st)] = st
        for f in st:
            frame_ids.add(id(f))
            refs += 1
    distinct = list(by_id.values())
    check(distinct, "no stacks at all")
    check(len(distinct) <= 80, f"{len(distinct)} distinct stacks: not shared")
    check(len(stacks_seen) > len(distinct), "stacks are not shared between entries")
    check(len(frame_ids) < refs, "frame dicts are not shared between stacks")
    for st in distinct:
        check(5 <= len(st) <= 40, f"stack depth {len(st)}")
        for f in st:
            check(set(f) == {"filename", "line", "name"}, f"frame keys {list(f)}")


class Live:
    __slots__ = ("addr", "bytes", "state", "free_idx", "free_frames", "alloc_idx", "alloc_frames", "block_frames")

    def __init__(self, addr, nbytes, state):
        self.addr, self.bytes, self.state = addr, nbytes, state
        self.free_idx = None
        self.free_frames = None
        self.alloc_idx = None
        self.alloc_frames = None
        self.block_frames = None


def check_case(outdir, case):
    name = case["case"]
    path = os.path.join(outdir, case["file"])
    exp = json.load(open(os.path.join(outdir, name + ".expected.json")))
    check(os.path.getsize(path) < 300 * 1024, "file larger than 300 KB")
    raw = raw_pickle(path)
    check(raw[0] == 0x80 and raw[1] == exp["pickle_protocol"], "protocol byte")
    pad = check_opcodes(raw)
    if path.endswith(".html"):
        check(pad >= 1, "HTML pickle not NUL-padded like torch does")
    snap = pickle.loads(raw)

    if isinstance(snap, list):
        segments, traces, legacy_key = snap, [], False
    else:
        check(isinstance(snap, dict), "top level")
        segments = snap["segments"]
        legacy_key = "traces" in snap and "device_traces" not in snap
        traces = snap["traces"] if legacy_key else snap["device_traces"]

    stacks_seen = []
    # ---- final state --------------------------------------------------------------------------
    per_dev = {}
    for s in segments:
        legacy_seg = "segment_pool_id" not in s
        dev = per_dev.setdefault(s["device"], {"segments": [], "blocks": []})
        dev["segments"].append(s)
        if not legacy_seg:
            check(list(s)[:12] == ["device", "address", "total_size", "allocated_size", "active_size",
                                   "requested_size", "stream", "segment_type", "segment_pool_id",
                                   "is_expandable", "frames", "blocks"], f"segment keys {list(s)}")
            check(isinstance(s["segment_pool_id"], tuple), "segment_pool_id is a tuple")
            stacks_seen.append(s["frames"])
        pos = s["address"]
        alloc = active = req = 0
        check(s["blocks"], "segment without blocks")
        for b in s["blocks"]:
            check(b["state"] in STATES, b["state"])
            if "address" in b:
                check(list(b) == ["address", "size", "requested_size", "state", "frames"], f"block keys {list(b)}")
                check(b["address"] == pos, f"block at {b['address']} does not tile (expected {pos})")
                stacks_seen.append(b["frames"])
                frames = b["frames"]
            else:
                check(legacy_seg, "block without address in a current-layout segment")
                hist = b.get("history") or []
                if hist:
                    check(hist[-1]["addr"] == pos, "last history entry is not at the block address")
                    for h in hist:
                        check(list(h) == ["addr", "real_size", "frames"], "history keys")
                        stacks_seen.append(h["frames"])
                    frames = hist[-1]["frames"]
                else:
                    frames = []
            check(b["size"] > 0 and b["size"] % 512 == 0, "block size not a positive multiple of 512")
            if b["state"] == "active_allocated":
                alloc += b["size"]
            if b["state"] != "inactive":
                active += b["size"]
                req += b["requested_size"]
                check(0 < b["requested_size"] <= b["size"], "requested_size out of range")
            else:
                check(frames == [], "inactive block with frames")
            dev["blocks"].append((pos, b, frames))
            pos += b["size"]
        check(pos == s["address"] + s["total_size"], "blocks do not cover the segment")
        check(s["allocated_size"] == alloc, "allocated_size != sum of active_allocated sizes")
        check(s["active_size"] == active, "active_size != sum of active block sizes")
        check(s["requested_size"] == req, "requested_size != sum of active requested sizes")
    for ordinal, dev in per_dev.items():
        segs = sorted(dev["segments"], key=lambda s: s["address"])
        for a, b in zip(segs, segs[1:]):
            check(a["address"] + a["total_size"] <= b["address"], "segments overlap")
        for s in segs:
            check(s["address"] + s["total_size"] < 2 ** 53, "address beyond 2**53")

    # ---- traces, backwards ----------------------------------------------------------------------
    devices = sorted(set(per_dev) | {i for i, t in enumerate(traces) if t})
    got = []
    for ordinal in devices:
        trace = traces[ordinal] if ordinal < len(traces) else []
        dev = per_dev.get(ordinal, {"segments": [], "blocks": []})
        for e in trace:
            if "frames" in e:
                stacks_seen.append(e["frames"])
        actions = Counter(e["action"] for e in trace)
        two_phase = actions["free_completed"] > 0
        freeing = {"free_completed", "free"} if two_phase else {"free_requested", "free"}
        times = [e["time_us"] for e in trace if "time_us" in e]
        check(times == sorted(times), "time_us not monotonic")
        check(not times or len(times) == len(trace), "time_us on some entries only")
        for e in trace:
            if e["action"] == "oom":
                check("addr" not in e and "device_free" in e, "oom entry shape")
            else:
                check(list(e)[:4] == ["action", "addr", "size", "stream"], f"entry keys {list(e)}")

        final_active = sum(b["requested_size"] for _, b, _ in dev["blocks"] if b["state"] != "inactive")
        final_reserved = sum(s["total_size"] for s in dev["segments"])
        final_allocated = sum(b["size"] for _, b, _ in dev["blocks"] if b["state"] == "active_allocated")

        def delta_active(e):
            if e["action"] == "alloc":
                return e["size"]
            if e["action"] in freeing:
                return -e["size"]
            return 0

        def delta_reserved(e):
            if e["action"] in ("segment_alloc", "segment_map"):
                return e["size"]
            if e["action"] in ("segment_free", "segment_unmap"):
                return -e["size"]
            return 0

        base_a = final_active - sum(delta_active(e) for e in trace)
        base_r = final_reserved - sum(delta_reserved(e) for e in trace)
        peak_a, peak_i, cur = base_a, -1, base_a
        peak_r, cur_r = base_r, base_r
        for i, e in enumerate(trace):
            cur += delta_active(e)
            cur_r += delta_reserved(e)
            if cur > peak_a:
                peak_a, peak_i = cur, i
            peak_r = max(peak_r, cur_r)

        # live allocations at the end = the active blocks
        live = {}
        for pos, b, frames in dev["blocks"]:
            if b["state"] != "inactive":
                r = Live(pos, b["requested_size"], "pending" if b["state"] == "active_pending_free" else "allocated")
                r.block_frames = frames
                live[pos] = r
        seg_addrs = {s["address"] for s in dev["segments"] if not s.get("is_expandable")}
        active = final_active
        reserved = final_reserved
        unmatched = 0
        at_peak = dict(live) if peak_i == len(trace) - 1 else None
        for i in range(len(trace) - 1, -1, -1):
            e = trace[i]
            act = e["action"]
            a = e.get("addr")
            if act == "alloc":
                r = live.pop(a, None)
                check(r is not None and r.state == "allocated", f"{name} dev {ordinal} #{i}: alloc at a non-live address")
                check(r.bytes == e["size"], f"{name} #{i}: alloc size {e['size']} != live size {r.bytes}")
                r.alloc_idx = i
                r.alloc_frames = e.get("frames", [])
            elif act in freeing:
                check(a not in live, f"{name} dev {ordinal} #{i}: {act} at an address that is live after it")
                r = Live(a, e["size"], "pending" if act == "free_completed" else "allocated")
                r.free_idx = i
                r.free_frames = e.get("frames", [])
                live[a] = r
            elif act == "free_requested":   # two-phase trace: the block was pending after this entry
                r = live.get(a)
                check(r is not None and r.state == "pending", f"{name} #{i}: free_requested of a non-pending block")
                check(r.bytes == e["size"], f"{name} #{i}: free_requested size")
                r.state = "allocated"
            elif act == "segment_alloc":
                check(a in seg_addrs, f"{name} #{i}: segment_alloc of a segment that is not there after")
                seg_addrs.discard(a)
            elif act == "segment_free":
                check(a not in seg_addrs, f"{name} #{i}: segment_free of a segment that exists after")
                seg_addrs.add(a)
            active -= delta_active(e)
            reserved -= delta_reserved(e)
            check(active >= 0 and reserved >= 0, f"{name} dev {ordinal}: negative memory before #{i}")
            check(active == sum(r.bytes for r in live.values()), f"{name} dev {ordinal}: active != live sum before #{i}")
            if i - 1 == peak_i:
                at_peak = dict(live)
        check(active == base_a and reserved == base_r, "backward replay baseline mismatch")
        if at_peak is None:
            at_peak = dict(live)   # peak_i == -1: the baseline
        for r in live.values():
            if r.free_idx is not None:
                unmatched += 1

        top = []
        for r in at_peak.values():
            if r.alloc_idx is not None:
                frames, aidx = r.alloc_frames, r.alloc_idx
            elif r.free_idx is not None:
                frames, aidx = r.free_frames, None
            else:
                frames, aidx = r.block_frames, None
            top.append({"address": r.addr, "bytes": r.bytes, "alloc_event_index": aidx, "frames": frames_json(frames)})
        top.sort(key=lambda t: (-t["bytes"], t["address"], -1 if t["alloc_event_index"] is None else t["alloc_event_index"]))

        got.append({
            "device": ordinal,
            "trace_entries": len(trace),
            "actions": dict(sorted(actions.items())),
            "segments": len(dev["segments"]),
            "blocks": len(dev["blocks"]),
            "reserved_bytes": {"final": final_reserved, "baseline": base_r, "peak": peak_r},
            "active_bytes": {"final": final_active, "baseline": base_a, "peak": peak_a, "peak_event_index": peak_i},
            "allocated_bytes": {"final": final_allocated},
            "unmatched_frees": unmatched,
            "oom": [{"event_index": i, "requested_bytes": e["size"], "device_free_bytes": e.get("device_free")}
                    for i, e in enumerate(trace) if e["action"] == "oom"],
            "largest_allocations_at_peak": top[:10],
        })

    check_sharing(stacks_seen)
    check(exp["schema"] == "allocscope.summary/1", "schema")
    check([d["device"] for d in exp["devices"]] == devices, f"devices {devices} vs expected {[d['device'] for d in exp['devices']]}")
    for g, x in zip(got, exp["devices"]):
        for k in g:
            check(g[k] == x[k], f"device {g['device']} field {k}: replay {json.dumps(g[k])[:300]} != expected {json.dumps(x[k])[:300]}")
    return exp


def main(argv):
    if len(argv) > 1:
        return check_dir(argv[1])
    with tempfile.TemporaryDirectory(prefix="allocscope-gen-") as outdir:
        gen = os.path.join(os.path.dirname(os.path.abspath(__file__)), "make_snapshots.py")
        subprocess.run([sys.executable, gen, outdir], check=True)
        return check_dir(outdir)


def check_dir(outdir):
    manifest = json.load(open(os.path.join(outdir, "manifest.json")))
    failed = 0
    for case in manifest:
        try:
            exp = check_case(outdir, case)
            devs = ", ".join(f"dev{d['device']}: {d['trace_entries']} entries, peak {d['active_bytes']['peak']}"
                             f"@{d['active_bytes']['peak_event_index']}" for d in exp["devices"])
            print(f"ok   {case['case']:<18} {devs}")
        except Failure as ex:
            failed += 1
            print(f"FAIL {case['case']:<18} {ex}")
    print(f"{len(manifest) - failed}/{len(manifest)} cases consistent")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
