#!/usr/bin/env python3
"""Generate synthetic PyTorch CUDA memory snapshots whose summary figures are known by construction.

Usage: python3 test/generators/make_snapshots.py OUTDIR

For every case this writes OUTDIR/<case>.<ext> (a pickle, a .pickle.gz or an .html page), and
OUTDIR/<case>.expected.json (the figures of `allocscope summary --json`, see docs/summary-json.md),
for cases with an oom entry OUTDIR/<case>.oom.json (the allocator's figures at each oom and the
verdict they imply, see oom_state), plus OUTDIR/manifest.json = [{"case", "file", "description"}].

How the figures are known: each case runs a small but faithful simulation of PyTorch's CUDA caching
allocator (segments from cudaMalloc or expandable mappings, blocks split and merged inside them, sizes
rounded to 512 bytes, best-fit reuse of cached blocks, record_stream-style deferred frees, cache
release before an OOM). Every event the simulation performs is appended to the device's trace, and
the simulation keeps running counters (active bytes = requested bytes of blocks not yet returned to
the cache, reserved bytes = mapped/cudaMalloc'ed bytes) after each event, and an object per
allocation that knows the event index of its alloc and of the event that returned its block to the
cache. What ends up in the file is a suffix of the event list (recording started late and/or the
ring buffer of `max_entries` wrapped), and the final `segments` are the simulated state itself.
The expected figures are read off those counters and allocation objects; they are not recomputed
from the written trace.

Standard library only; deterministic (fixed seeds); the whole run takes well under a second.
"""

import base64
import gzip
import json
import os
import pickle
import random
import sys
from collections import Counter

KiB = 1024
MiB = 1024 * KiB
GiB = 1024 * MiB

# PyTorch CUDACachingAllocator constants
MIN_BLOCK = 512            # kMinBlockSize: every size is rounded up to a multiple of this
SMALL_SIZE = 1 * MiB       # kSmallSize: requests <= this go to the small pool
SMALL_BUFFER = 2 * MiB     # kSmallBuffer: cudaMalloc size for the small pool
LARGE_BUFFER = 20 * MiB    # kLargeBuffer: cudaMalloc size for large requests < kMinLargeAlloc
MIN_LARGE_ALLOC = 10 * MiB  # kMinLargeAlloc
ROUND_LARGE = 2 * MiB      # kRoundLarge: larger requests are cudaMalloc'ed rounded to this
EXP_PAGE_SMALL = 2 * MiB   # expandable segments: mapping granularity, small pool
EXP_PAGE_LARGE = 20 * MiB  # expandable segments: mapping granularity, large pool

DEFAULT_POOL = (0, 0)
PRIVATE_POOL = (0, 1)
SIDE_STREAM = 94520383029248      # raw cudaStream_t values, as real files have them
CAPTURE_STREAM = 94520391418880
DEV2_STREAM = 94413502150656

SCHEMA = "allocscope.summary/1"
JS_MAX_SAFE = 2 ** 53 - 1

DEFAULT_SETTINGS_KEYS = ("1", "2", "4", "8", "16", "32", "64", "128", "256", "512", "1024",
                         "2048", "4096", "8192", "16384", "32768")


def allocator_settings(expandable=False, extra=None):
    s = {
        "PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True" if expandable else "",
        "max_split_size": -1,
        "garbage_collection_threshold": 0.0,
        "expandable_segments": bool(expandable),
        "pinned_num_register_threads": 1,
        "release_lock_on_cudamalloc": False,
        "pinned_use_cuda_host_register": False,
        "roundup_power2_divisions": {k: 0 for k in DEFAULT_SETTINGS_KEYS},
    }
    if extra:
        s.update(extra)
    return s


def round_up(n, m):
    return (n + m - 1) // m * m


def round_size(n):
    return MIN_BLOCK if n < MIN_BLOCK else round_up(n, MIN_BLOCK)


def cuda_malloc_size(rounded):
    if rounded <= SMALL_SIZE:
        return SMALL_BUFFER
    if rounded < MIN_LARGE_ALLOC:
        return LARGE_BUFFER
    return round_up(rounded, ROUND_LARGE)


# ---------------------------------------------------------------------------------------------
# Stack pool: a few dozen stacks 5..40 frames deep, built from shared frame dicts. The same list
# object is used by every entry/block with that stack, so pickle memoizes frames and stacks the
# way real files do.
# ---------------------------------------------------------------------------------------------

CPP_INNER = [
    ("torch::unwind::unwind()", "??", 0),
    ("torch::CapturedTraceback::gather(bool, bool, bool)", "??", 0),
    ("torch::cuda::(anonymous namespace)::gather_with_cpp()", "memory_snapshot.cpp", 0),
]
CPP_MID = [
    ("c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc(signed char, unsigned long, CUstream_st*)", "??", 0),
    ("c10::cuda::CUDACachingAllocator::Native::NativeCachingAllocator::malloc(void**, signed char, unsigned long, CUstream_st*)", "??", 0),
    ("at::detail::empty_generic(c10::ArrayRef<long>, c10::Allocator*, c10::DispatchKeySet, c10::ScalarType, std::optional<c10::MemoryFormat>)", "??", 0),
    ("at::native::empty_cuda(c10::ArrayRef<long>, std::optional<c10::ScalarType>, std::optional<c10::Layout>, std::optional<c10::Device>, std::optional<bool>, std::optional<c10::MemoryFormat>)", "??", 0),
    ("at::_ops::empty_strided::call(c10::ArrayRef<c10::SymInt>, c10::ArrayRef<c10::SymInt>, std::optional<c10::ScalarType>, std::optional<c10::Layout>, std::optional<c10::Device>, std::optional<bool>)", "??", 0),
    ("at::native::addmm_out_cuda_impl(at::Tensor&, at::Tensor const&, at::Tensor const&, at::Tensor const&, c10::Scalar const&, c10::Scalar const&, bool)", "??", 0),
    ("torch::autograd::Engine::thread_main(std::shared_ptr<torch::autograd::GraphTask> const&)", "??", 0),
    ("_PyEval_EvalFrameDefault", "??", 0),
    ("PyObject_Call", "??", 0),
    ("_PyObject_MakeTpCall", "??", 0),
]
CPP_OUTER = [("__libc_start_main", "??", 0), ("_start", "??", 0)]

SITE = "/opt/conda/lib/python3.11/site-packages/torch"
PY_INNER = {
    f"{SITE}/nn/functional.py": ["linear", "gelu", "layer_norm", "dropout", "scaled_dot_product_attention", "cross_entropy", "softmax"],
    f"{SITE}/nn/modules/linear.py": ["forward"],
    f"{SITE}/nn/modules/normalization.py": ["forward"],
    f"{SITE}/nn/modules/module.py": ["_call_impl", "_wrapped_call_impl", "_apply", "to", "convert"],
    f"{SITE}/_tensor.py": ["backward", "__torch_function__"],
    f"{SITE}/autograd/__init__.py": ["backward"],
    f"{SITE}/autograd/graph.py": ["_engine_run_backward"],
    f"{SITE}/optim/adamw.py": ["step", "_init_group", "_multi_tensor_adamw", "adamw"],
    f"{SITE}/optim/optimizer.py": ["wrapper", "_use_grad"],
    f"{SITE}/utils/checkpoint.py": ["forward", "checkpoint"],
    f"{SITE}/cuda/graphs.py": ["__enter__", "capture_begin"],
}
PY_MODEL = {
    "/home/user/project/model.py": ["forward", "attention", "mlp", "block_forward", "embed", "lm_head", "rotary"],
    "/home/user/project/kv_cache.py": ["allocate", "extend", "reset"],
}
PY_OUTER = {
    "/home/user/project/train.py": ["train_step", "evaluate", "load_checkpoint", "main", "<module>"],
}


class StackPool:
    def __init__(self, rng, n_stacks=36, legacy_key_order=False):
        self.rng = rng
        self.legacy = legacy_key_order
        self._frames = {}
        self.inner = [self.frame(*f) for f in CPP_INNER]
        self.mid = [self.frame(*f) for f in CPP_MID]
        self.outer_cpp = [self.frame(*f) for f in CPP_OUTER]
        self.py_inner = [self.frame(fn, fl, rng.randint(40, 2400)) for fl, fns in PY_INNER.items() for fn in fns for _ in range(2)]
        self.py_model = [self.frame(fn, fl, rng.randint(10, 600)) for fl, fns in PY_MODEL.items() for fn in fns for _ in range(2)]
        self.py_outer = {fn: self.frame(fn, fl, rng.randint(10, 500)) for fl, fns in PY_OUTER.items() for fn in fns}
        self.stacks = [self.make_stack() for _ in range(n_stacks)]

    def frame(self, name, filename, line):
        key = (name, filename, line)
        f = self._frames.get(key)
        if f is None:
            if self.legacy:
                f = {"filename": filename, "name": name, "line": line}
            else:
                f = {"name": name, "filename": filename, "line": line}
            self._frames[key] = f
        return f

    def make_stack(self, depth=None, special=None):
        rng = self.rng
        depth = depth or rng.randint(5, 40)
        outer_names = ["main", "<module>"]
        entry = rng.choice(["train_step", "evaluate", "load_checkpoint"])
        outer = [self.py_outer[entry]] + [self.py_outer[n] for n in outer_names]
        with_cpp = depth >= 12 and not self.legacy
        head = list(self.inner) if with_cpp else []
        tail = list(self.outer_cpp) if with_cpp else []
        budget = depth - len(head) - len(tail) - len(outer)
        body = []
        if with_cpp and budget > 4:
            k = rng.randint(1, min(4, budget - 3))
            body += rng.sample(self.mid, k)
        while len(body) < budget:
            body.append(rng.choice(self.py_inner if rng.random() < 0.6 else self.py_model))
        stack = head + body[:max(budget, 0)] + outer + tail
        if special is not None:
            stack.insert(min(len(head) + 1, len(stack)), special)
        stack = stack[:40]
        assert 5 <= len(stack) <= 40, len(stack)
        return stack

    def pick(self):
        return self.rng.choice(self.stacks)


# ---------------------------------------------------------------------------------------------
# Allocator simulation
# ---------------------------------------------------------------------------------------------

class Block:
    __slots__ = ("address", "size", "requested", "state", "frames", "alloc", "history", "seg")

    def __init__(self, address, size, requested, state, frames, seg):
        self.address = address
        self.size = size
        self.requested = requested
        self.state = state
        self.frames = frames
        self.alloc = None
        self.history = None
        self.seg = seg


class Segment:
    __slots__ = ("device", "address", "total_size", "stream", "seg_type", "pool", "expandable", "frames", "blocks", "page")

    def __init__(self, device, address, total_size, stream, seg_type, pool, expandable, frames, page=0):
        self.device = device
        self.address = address
        self.total_size = total_size
        self.stream = stream
        self.seg_type = seg_type
        self.pool = pool
        self.expandable = expandable
        self.frames = frames
        self.blocks = []
        self.page = page


class Alloc:
    __slots__ = ("device", "addr", "bytes", "stack", "stream", "alloc_idx", "free_idx", "free_stack", "block",
                 "block_size")

    def __init__(self, device, addr, nbytes, stack, stream, alloc_idx, block):
        self.device = device
        self.addr = addr
        self.bytes = nbytes
        self.stack = stack
        self.stream = stream
        self.alloc_idx = alloc_idx
        self.free_idx = None      # index of the entry that returned the block to the cache
        self.free_stack = None    # frames of that entry (None: entry has no frames key)
        self.block = block
        self.block_size = block.size  # the block's bytes when it was handed out


class Device:
    def __init__(self, ordinal, *, addr_base, capacity, free_mode, expandable, clock):
        self.ordinal = ordinal
        self.entries = []
        self.post_active = []
        self.post_reserved = []
        self.active = 0
        self.reserved = 0
        self.allocated = 0
        self.segments = []
        self.exp_segments = {}
        self.allocs = []
        self.ooms = []          # (global index, requested, device_free)
        self.oom_states = []    # what the allocator held at each oom (see oom_state)
        self.capacity = capacity
        self.free_mode = free_mode  # 'two_phase' | 'requested_only' | 'legacy'
        self.expandable = expandable
        self.next_addr = addr_base
        self.freed_ranges = []
        self.clock = clock
        self.record_start = 0
        self.max_entries = None
        self.last_history = {}  # legacy: addr -> history dict of the last allocation there

    def window_start(self):
        n = len(self.entries)
        s = self.record_start
        if self.max_entries is not None:
            s = max(s, n - self.max_entries)
        return min(s, n)


class Sim:
    def __init__(self, rng, *, time_us=True, compile_context=True, user_metadata=False,
                 legacy=False, free_frames=True):
        self.rng = rng
        self.time_us = time_us
        self.compile_context = compile_context
        self.user_metadata = user_metadata
        self.legacy = legacy
        self.free_frames = free_frames  # False: free entries carry no frames key (context='alloc')
        self.devices = {}

    def add_device(self, ordinal, *, addr_base, capacity=80 * GiB, free_mode="two_phase",
                   expandable=False, clock=1757253255000000):
        d = Device(ordinal, addr_base=addr_base, capacity=capacity, free_mode=free_mode,
                   expandable=expandable, clock=clock)
        self.devices[ordinal] = d
        return d

    def start_recording(self):
        for d in self.devices.values():
            d.record_start = len(d.entries)

    # -- trace ---------------------------------------------------------------------------------
    def emit(self, dev, action, addr, size, stream, frames, device_free=None):
        e = {"action": action}
        if action == "oom":
            e["device_free"] = device_free
        else:
            e["addr"] = addr
        e["size"] = size
        e["stream"] = stream
        if self.time_us:
            dev.clock += self.rng.randint(1, 350)
            e["time_us"] = dev.clock
        if self.compile_context:
            e["compile_context"] = "N/A"
        if self.user_metadata:
            e["user_metadata"] = ""
        if frames is not None:
            e["frames"] = frames
        dev.entries.append(e)
        dev.post_active.append(dev.active)
        dev.post_reserved.append(dev.reserved)
        return len(dev.entries) - 1

    # -- segments ------------------------------------------------------------------------------
    def _va(self, dev, size):
        """cudaMalloc address: reuse a range freed by cudaFree when one fits, else bump."""
        for i, (a, s) in enumerate(dev.freed_ranges):
            if s >= size:
                if s > size:
                    dev.freed_ranges[i] = (a + size, s - size)
                else:
                    del dev.freed_ranges[i]
                return a
        a = dev.next_addr
        dev.next_addr += round_up(size, 2 * MiB) + self.rng.randint(0, 3) * 2 * MiB
        return a

    def _exp_segment(self, dev, stream, pool, seg_type):
        key = (stream, pool, seg_type)
        seg = dev.exp_segments.get(key)
        if seg is None:
            addr = dev.next_addr
            dev.next_addr += 4 * GiB  # reserved virtual range
            page = EXP_PAGE_SMALL if seg_type == "small" else EXP_PAGE_LARGE
            seg = Segment(dev.ordinal, addr, 0, stream, seg_type, pool, True, [], page)
            dev.exp_segments[key] = seg
        return seg

    def release_cached(self, dev, frames=None):
        """empty_cache() / the retry path of a failed cudaMalloc: cudaFree every segment that is one
        free block; for expandable segments unmap the free pages at their end."""
        for seg in sorted(dev.segments, key=lambda s: s.address):
            if seg.expandable:
                tail = seg.blocks[-1] if seg.blocks and seg.blocks[-1].state == "inactive" else None
                if tail is None:
                    continue
                end = seg.address + seg.total_size
                first_page = seg.address + round_up(tail.address - seg.address, seg.page)
                unmap = end - first_page
                if unmap <= 0:
                    continue
                seg.total_size -= unmap
                tail.size -= unmap
                if tail.size == 0:
                    seg.blocks.pop()
                dev.reserved -= unmap
                if seg.total_size == 0:
                    dev.segments.remove(seg)
                self.emit(dev, "segment_unmap", first_page, unmap, seg.stream, frames)
            elif len(seg.blocks) == 1 and seg.blocks[0].state == "inactive":
                dev.segments.remove(seg)
                dev.reserved -= seg.total_size
                dev.freed_ranges.append((seg.address, seg.total_size))
                self.emit(dev, "segment_free", seg.address, seg.total_size, seg.stream, frames)

    def _grow(self, dev, rounded, stream, pool, seg_type, frames, seg_frames):
        if dev.expandable:
            for attempt in (0, 1):
                seg = self._exp_segment(dev, stream, pool, seg_type)
                tail = seg.blocks[-1] if seg.blocks and seg.blocks[-1].state == "inactive" else None
                need = round_up(rounded - (tail.size if tail else 0), seg.page)
                if dev.reserved + need <= dev.capacity:
                    break
                if attempt == 0:
                    self.release_cached(dev, None)
            else:
                return None
            start = seg.address + seg.total_size
            if seg.total_size == 0:
                dev.segments.append(seg)
            seg.total_size += need
            dev.reserved += need
            self.emit(dev, "segment_map", start, need, stream, frames)
            if tail is not None:
                tail.size += need
                return tail
            b = Block(start, need, 0, "inactive", [], seg)
            seg.blocks.append(b)
            return b
        size = cuda_malloc_size(rounded)
        if dev.reserved + size > dev.capacity:
            self.release_cached(dev, None)
            if dev.reserved + size > dev.capacity:
                return None
        addr = self._va(dev, size)
        seg = Segment(dev.ordinal, addr, size, stream, seg_type, pool, False,
                      seg_frames if seg_frames is not None else [])
        b = Block(addr, size, 0, "inactive", [], seg)
        seg.blocks.append(b)
        dev.segments.append(seg)
        dev.reserved += size
        self.emit(dev, "segment_alloc", addr, size, stream, frames)
        return b

    # -- allocation ----------------------------------------------------------------------------
    def malloc(self, dev, nbytes, frames, stream=0, pool=DEFAULT_POOL, seg_frames=None):
        assert nbytes > 0
        rounded = round_size(nbytes)
        seg_type = "small" if rounded <= SMALL_SIZE else "large"
        best = None
        for seg in dev.segments:
            if seg.stream != stream or seg.pool != pool or seg.seg_type != seg_type:
                continue
            for b in seg.blocks:
                if b.state == "inactive" and b.size >= rounded and (
                        best is None or (b.size, b.address) < (best.size, best.address)):
                    best = b
        if best is None:
            best = self._grow(dev, rounded, stream, pool, seg_type, frames, seg_frames)
            if best is None:
                device_free = dev.capacity - dev.reserved
                idx = self.emit(dev, "oom", None, nbytes, stream, frames, device_free=device_free)
                dev.ooms.append((idx, nbytes, device_free))
                dev.oom_states.append(oom_state(dev, idx, nbytes, device_free, stream, pool, seg_type))
                return None
        seg = best.seg
        remaining = best.size - rounded
        if (seg_type == "small" and remaining >= MIN_BLOCK) or (seg_type == "large" and remaining > SMALL_SIZE):
            # PyTorch keeps the old Block object as the remainder (stale requested_size included)
            rem = Block(best.address + rounded, remaining, best.requested, "inactive", [], seg)
            seg.blocks.insert(seg.blocks.index(best) + 1, rem)
            best.size = rounded
        best.state = "active_allocated"
        best.requested = nbytes
        best.frames = frames if frames is not None else []
        if self.legacy:
            h = {"addr": best.address, "real_size": nbytes, "frames": best.frames}
            prev = dev.last_history.get(best.address)
            best.history = [prev, h] if prev is not None else [h]
        dev.active += nbytes
        dev.allocated += best.size
        idx = self.emit(dev, "alloc", best.address, nbytes, stream, frames)
        a = Alloc(dev.ordinal, best.address, nbytes, frames, stream, idx, best)
        best.alloc = a
        dev.allocs.append(a)
        return a

    def _return_block(self, dev, a):
        b = a.block
        seg = b.seg
        if self.legacy and b.history:
            dev.last_history[b.address] = b.history[-1]
        b.state = "inactive"
        b.frames = []
        b.alloc = None
        b.history = None
        i = seg.blocks.index(b)
        if i + 1 < len(seg.blocks) and seg.blocks[i + 1].state == "inactive":
            b.size += seg.blocks[i + 1].size
            del seg.blocks[i + 1]
        if i > 0 and seg.blocks[i - 1].state == "inactive":
            p = seg.blocks[i - 1]
            b.address = p.address
            b.size += p.size
            del seg.blocks[i - 1]
        dev.active -= a.bytes

    def free(self, a, frames, defer=False):
        """The user frees `a`. defer=True: the block was used on another stream (record_stream), so it
        stays active_pending_free until complete() is called."""
        dev = self.devices[a.device]
        if not self.free_frames:
            frames = None
        b = a.block
        assert b.state == "active_allocated" and b.alloc is a
        dev.allocated -= b.size
        if dev.free_mode == "two_phase":
            b.state = "active_pending_free"
            self.emit(dev, "free_requested", a.addr, a.bytes, a.stream, frames)
            if not defer:
                self.complete(a, frames)
        else:
            assert not defer
            self._return_block(dev, a)
            action = "free" if dev.free_mode == "legacy" else "free_requested"
            a.free_idx = self.emit(dev, action, a.addr, a.bytes, a.stream, frames)
            a.free_stack = frames

    def complete(self, a, frames):
        dev = self.devices[a.device]
        if not self.free_frames:
            frames = None
        assert a.block.state == "active_pending_free"
        self._return_block(dev, a)
        a.free_idx = self.emit(dev, "free_completed", a.addr, a.bytes, a.stream, frames)
        a.free_stack = frames

    def snapshot_event(self, dev):
        self.emit(dev, "snapshot", 0, dev.reserved, 0, None)

    # -- output --------------------------------------------------------------------------------
    def segments_out(self, legacy=False):
        out = []
        for ordinal in sorted(self.devices):
            dev = self.devices[ordinal]
            for seg in sorted(dev.segments, key=lambda s: s.address):
                if seg.total_size == 0:
                    continue
                assert seg.address + seg.total_size <= 2 ** 47, "address beyond the 47-bit user space"
                blocks = []
                alloc_sz = active_sz = req_sz = 0
                for b in seg.blocks:
                    if b.state == "active_allocated":
                        alloc_sz += b.size
                    if b.state != "inactive":
                        active_sz += b.size
                        req_sz += b.requested
                    if legacy:
                        bd = {"size": b.size, "requested_size": b.requested, "state": b.state}
                        if b.history:
                            bd["history"] = b.history
                    else:
                        bd = {"address": b.address, "size": b.size, "requested_size": b.requested,
                              "state": b.state, "frames": b.frames}
                    blocks.append(bd)
                sd = {"device": seg.device, "address": seg.address, "total_size": seg.total_size,
                      "allocated_size": alloc_sz, "active_size": active_sz, "requested_size": req_sz,
                      "stream": seg.stream, "segment_type": seg.seg_type}
                if not legacy:
                    sd["segment_pool_id"] = seg.pool
                    sd["is_expandable"] = seg.expandable
                    sd["frames"] = seg.frames
                sd["blocks"] = blocks
                out.append(sd)
        return out

    def traces_out(self, n_devices):
        return [self.devices[i].entries[self.devices[i].window_start():] if i in self.devices else []
                for i in range(n_devices)]

    # -- expected figures ----------------------------------------------------------------------
    def expected_devices(self, top=10):
        devs = []
        for ordinal in sorted(self.devices):
            dev = self.devices[ordinal]
            self._check_counters(dev)
            segs = [s for s in dev.segments if s.total_size > 0]
            n = len(dev.entries)
            s = dev.window_start()
            window = dev.entries[s:]
            if not segs and not window:
                continue
            base_active = dev.post_active[s - 1] if s > 0 else 0
            base_reserved = dev.post_reserved[s - 1] if s > 0 else 0
            peak_active, peak_idx = base_active, -1
            peak_reserved = base_reserved
            for i in range(s, n):
                if dev.post_active[i] > peak_active:
                    peak_active, peak_idx = dev.post_active[i], i - s
                peak_reserved = max(peak_reserved, dev.post_reserved[i])
            g = s + peak_idx  # global position of the peak (s - 1: just before the first kept entry)
            live = []
            unmatched = 0
            for a in dev.allocs:
                if a.alloc_idx < s and a.free_idx is not None and s <= a.free_idx:
                    unmatched += 1
                if a.alloc_idx <= g and (a.free_idx is None or a.free_idx > g):
                    if a.alloc_idx >= s:
                        frames, aidx = a.stack or [], a.alloc_idx - s
                    elif a.free_idx is not None:
                        # made before the trace, freed inside it: the freeing entry is all the trace knows
                        frames, aidx = a.free_stack or [], None
                    else:
                        # made before the trace, still alive: the block in the final state
                        b = a.block
                        frames = (b.history[-1]["frames"] if b.history else []) if self.legacy else b.frames
                        aidx = None
                    live.append((a.bytes, a.addr, aidx, frames))
            live.sort(key=lambda t: (-t[0], t[1], -1 if t[2] is None else t[2]))
            nblocks = sum(len(sg.blocks) for sg in segs)
            devs.append({
                "device": ordinal,
                "trace_entries": len(window),
                "actions": dict(sorted(Counter(e["action"] for e in window).items())),
                "segments": len(segs),
                "blocks": nblocks,
                "reserved_bytes": {"final": dev.reserved, "baseline": base_reserved, "peak": peak_reserved},
                "active_bytes": {"final": dev.active, "baseline": base_active, "peak": peak_active,
                                 "peak_event_index": peak_idx},
                "allocated_bytes": {"final": dev.allocated},
                "unmatched_frees": unmatched,
                "oom": [{"event_index": i - s, "requested_bytes": sz, "device_free_bytes": fr}
                        for (i, sz, fr) in dev.ooms if i >= s],
                "largest_allocations_at_peak": [
                    {"address": addr, "bytes": nb, "alloc_event_index": aidx, "frames": frames_json(fr)}
                    for (nb, addr, aidx, fr) in live[:top]],
            })
        return devs

    def _check_counters(self, dev):
        segs = [s for s in dev.segments if s.total_size > 0]
        assert dev.reserved == sum(s.total_size for s in segs)
        assert dev.active == sum(b.requested for s in segs for b in s.blocks if b.state != "inactive")
        assert dev.allocated == sum(b.size for s in segs for b in s.blocks if b.state == "active_allocated")
        for s in segs:
            pos = s.address
            for b in s.blocks:
                assert b.address == pos and b.size > 0
                pos += b.size
            assert pos == s.address + s.total_size


def oom_state(dev, idx, nbytes, device_free, stream, pool, seg_type):
    """The allocator's own figures at a failed request, read off the simulated segments (the
    blocks as they are, not as a trace replay would estimate them), and the verdict they imply:
    - fits-in-cache: a free block of the request's pool, stream and segment type holds it;
    - fragmentation: no such block, but the device's cached free bytes plus device_free would;
    - out-of-memory: otherwise (live allocations hold the memory)."""
    segs = [sg for sg in dev.segments if sg.total_size > 0]
    free = [b.size for sg in segs for b in sg.blocks if b.state == "inactive"]
    pool_free = [b.size for sg in segs for b in sg.blocks if b.state == "inactive"
                 and sg.stream == stream and sg.pool == pool and sg.seg_type == seg_type]
    rounded = round_size(nbytes)
    largest_pool = max(pool_free, default=0)
    if largest_pool >= rounded:
        verdict = "fits-in-cache"
    elif sum(free) + device_free >= rounded:
        verdict = "fragmentation"
    else:
        verdict = "out-of-memory"
    by_stack = {}
    for a in dev.allocs:
        if a.alloc_idx <= idx and (a.free_idx is None or a.free_idx > idx):
            key = id(a.stack) if a.stack else None
            by_stack[key] = by_stack.get(key, 0) + a.bytes
    return {
        "global_index": idx,
        "requested_bytes": nbytes,
        "rounded_request_bytes": rounded,
        "device_free_bytes": device_free,
        "segment_type": seg_type,
        "reserved_bytes": dev.reserved,
        "active_bytes": dev.active,
        "cached_free_bytes": sum(free),
        "largest_free_bytes": max(free, default=0),
        "free_block_count": len(free),
        "pool_cached_free_bytes": sum(pool_free),
        "pool_largest_free_bytes": largest_pool,
        "holder_bytes": sorted(by_stack.values(), reverse=True)[:10],
        "verdict": verdict,
    }


def expected_ooms(sim):
    """<case>.oom.json: per device, the figures at each oom entry of the written trace."""
    out = []
    for ordinal in sorted(sim.devices):
        dev = sim.devices[ordinal]
        s = dev.window_start()
        ooms = []
        for st in dev.oom_states:
            if st["global_index"] < s:
                continue
            st = dict(st)
            st["event_index"] = st.pop("global_index") - s
            ooms.append(st)
        if ooms:
            out.append({"device": ordinal, "ooms": ooms})
    return out


def check_oom_replayable(dev):
    """Allocations alive at an oom but freed after it: a trace replay only knows their requested
    bytes, so their blocks must be exactly the allocator's rounding of them (no unsplit tail)."""
    for st in dev.oom_states:
        g = st["global_index"]
        for a in dev.allocs:
            if a.alloc_idx <= g and a.free_idx is not None and a.free_idx > g:
                assert a.block_size == round_size(a.bytes), (a.block_size, a.bytes)


def frames_json(frames):
    out = []
    for f in frames:
        line = f["line"]
        if not (isinstance(line, int) and -JS_MAX_SAFE <= line <= JS_MAX_SAFE):
            line = -1
        out.append({"filename": f["filename"], "line": line, "name": f["name"]})
    return out


def annotations(sim, names):
    """external_annotations: START/END pairs spread over the recorded time of device 0."""
    out = []
    dev = sim.devices[min(sim.devices)]
    s = dev.window_start()
    times = [e["time_us"] for e in dev.entries[s:] if "time_us" in e]
    if not times:
        return out
    span = max(times[-1] - times[0], len(names) * 4)
    step = span // (len(names) + 1)
    for i, name in enumerate(names):
        t0 = times[0] + step * i + 1
        out.append({"stage": "START", "name": name, "device": dev.ordinal, "time_us": t0})
        out.append({"stage": "END", "name": name, "device": dev.ordinal, "time_us": t0 + step // 2})
    return out


# ---------------------------------------------------------------------------------------------
# Workloads
# ---------------------------------------------------------------------------------------------

def odd(rng, lo, hi):
    """A size in [lo, hi] that is usually not a multiple of 512 (rounding waste)."""
    n = rng.randint(lo, hi)
    return n if rng.random() < 0.6 else max(512, n // 512 * 512)


class Model:
    def __init__(self, sim, dev, rng, stacks, *, n_weights, w_lo, w_hi, n_layers, a_lo, a_hi,
                 stream=0, pool=DEFAULT_POOL, seg_frames=False):
        self.sim, self.dev, self.rng, self.stacks = sim, dev, rng, stacks
        self.stream, self.pool = stream, pool
        self.n_layers, self.a_lo, self.a_hi = n_layers, a_lo, a_hi
        self.w_stack = stacks.pick()
        w_size = odd(rng, w_lo, w_hi)
        self.weights = []
        for i in range(n_weights):
            if i % 3 == 2:
                w_size = odd(rng, w_lo, w_hi)
            self.weights.append(sim.malloc(dev, w_size, self.w_stack, stream, pool,
                                           seg_frames=self.w_stack if seg_frames else None))
        self.fwd = [stacks.pick() for _ in range(4)]
        self.bwd = [stacks.pick() for _ in range(4)]
        self.frees = [stacks.pick() for _ in range(3)]

    def m(self, n, stack=None, stream=None):
        return self.sim.malloc(self.dev, n, stack or self.rng.choice(self.fwd),
                               self.stream if stream is None else stream, self.pool)

    def f(self, a, stack=None, defer=False):
        if a is not None:
            self.sim.free(a, stack or self.rng.choice(self.frees), defer=defer)

    def iteration(self, scale=1.0, hold=None):
        rng = self.rng
        acts = []
        for _ in range(self.n_layers):
            acts.append(self.m(odd(rng, int(self.a_lo * scale), int(self.a_hi * scale))))
            t = self.m(odd(rng, 4, 900 * KiB))
            if rng.random() < 0.5:
                t2 = self.m(odd(rng, 1100 * KiB, 6 * MiB))
                self.f(t2)
            self.f(t)
        loss = self.m(4)
        if hold is not None:
            hold(self)
        grads = []
        for a in reversed(acts):
            g = self.m(odd(rng, self.a_lo // 2, self.a_hi // 2), rng.choice(self.bwd))
            self.f(a)
            if rng.random() < 0.3:
                grads.append(g)
            else:
                self.f(g)
        self.f(loss)
        for g in grads:
            self.f(g)


# ---------------------------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------------------------

ADDR_BASE = 139_960_000_000_000 // (2 * MiB) * (2 * MiB)   # ~0x7f4b..., like real files


def addr_slot(k):
    """Start of the k-th 16 GiB address region (all below 2**47, like user-space CUDA addresses)."""
    a = ADDR_BASE + k * 16 * GiB
    assert a + 16 * GiB < 2 ** 47
    return a


def snapshot_dict(sim, n_devices, settings=True, ann=None, expandable=False, extra_settings=None,
                  traces_key="device_traces", legacy=False):
    d = {"segments": sim.segments_out(legacy=legacy), traces_key: sim.traces_out(n_devices)}
    if settings:
        d["allocator_settings"] = allocator_settings(expandable, extra_settings)
    if ann is not None:
        d["external_annotations"] = ann
    return d


def basic_like(seed, *, user_metadata=False, compile_context=True, iters=3):
    rng = random.Random(seed)
    sim = Sim(rng, compile_context=compile_context, user_metadata=user_metadata)
    dev = sim.add_device(0, addr_base=addr_slot(seed))
    stacks = StackPool(rng)
    model = Model(sim, dev, rng, stacks, n_weights=6, w_lo=3 * MiB, w_hi=30 * MiB, n_layers=6,
                  a_lo=1200 * KiB, a_hi=24 * MiB, seg_frames=True)
    for it in range(iters):
        model.iteration(scale=1.0 + 0.25 * it)
    # optimizer state, kept
    for w in model.weights[:3]:
        model.m(w.bytes, rng.choice(model.bwd))
    return sim, dev


def case_basic_p4():
    sim, dev = basic_like(11)
    ann = annotations(sim, ["ProfilerStep#1", "ProfilerStep#2", "Optimizer.step#AdamW.step"])
    return snapshot_dict(sim, 1, ann=ann), sim, 4


def case_protocol2():
    sim, dev = basic_like(12, compile_context=False, iters=2)
    return snapshot_dict(sim, 1, ann=[]), sim, 2


def case_protocol5():
    sim, dev = basic_like(13, user_metadata=True, iters=2)
    ann = annotations(sim, ["Optimizer.zero_grad#AdamW.zero_grad"])
    return snapshot_dict(sim, 1, ann=ann), sim, 5


def case_gzip():
    sim, dev = basic_like(14, iters=2)
    return snapshot_dict(sim, 1, ann=[]), sim, 4


def case_html():
    sim, dev = basic_like(15, iters=2)
    return snapshot_dict(sim, 1, ann=annotations(sim, ["ProfilerStep#0"])), sim, 4


def case_ring_wrap():
    rng = random.Random(21)
    sim = Sim(rng)
    dev = sim.add_device(0, addr_base=addr_slot(2))
    stacks = StackPool(rng)
    model = Model(sim, dev, rng, stacks, n_weights=9, w_lo=8 * MiB, w_hi=28 * MiB, n_layers=8,
                  a_lo=2 * MiB, a_hi=20 * MiB)
    cache_stack = stacks.pick()
    cache_free_stack = next(st for st in stacks.stacks if st is not cache_stack and st is not model.w_stack)
    caches = []
    iter_start = []
    for it in range(14):
        iter_start.append(len(dev.entries))
        # a long-lived cache entry made every iteration, dropped three iterations later
        caches.append(model.m(odd(rng, 30 * MiB, 60 * MiB), cache_stack))
        if len(caches) > 3:
            model.f(caches.pop(0), cache_free_stack)
        model.iteration(scale=1.0 + (0.6 if it == 12 else 0.0))
    for c in caches:
        model.f(c, cache_free_stack)
    # keep the newest entries, from the middle of iteration 11 on, cut so that the kept trace starts
    # with a free_completed whose free_requested (and alloc) fell off the ring buffer; the caches
    # made in iterations 10 and 11 are then live at the peak (iteration 12) but their allocs are lost
    n = len(dev.entries)
    s = iter_start[11] + 30
    while not (dev.entries[s]["action"] == "free_completed"):
        s += 1
    dev.max_entries = n - s
    return snapshot_dict(sim, 1, ann=annotations(sim, ["ProfilerStep#13"])), sim, 4


def case_expandable():
    rng = random.Random(31)
    sim = Sim(rng)
    dev = sim.add_device(0, addr_base=addr_slot(3), expandable=True)
    stacks = StackPool(rng)
    model = Model(sim, dev, rng, stacks, n_weights=5, w_lo=8 * MiB, w_hi=50 * MiB, n_layers=6,
                  a_lo=1500 * KiB, a_hi=30 * MiB)
    model.iteration(scale=1.5)
    model.iteration(scale=1.8)
    sim.release_cached(dev, stacks.pick())   # torch.cuda.empty_cache(): the segment shrinks
    model.iteration(scale=1.0)
    model.iteration(scale=2.2)                # ... and grows again
    sim.release_cached(dev, stacks.pick())
    model.iteration(scale=0.8)
    return snapshot_dict(sim, 1, ann=[], expandable=True), sim, 4


def case_oom():
    rng = random.Random(41)
    sim = Sim(rng)
    dev = sim.add_device(0, addr_base=addr_slot(4), capacity=1536 * MiB)
    stacks = StackPool(rng)
    model = Model(sim, dev, rng, stacks, n_weights=8, w_lo=30 * MiB, w_hi=52 * MiB, n_layers=6,
                  a_lo=12 * MiB, a_hi=40 * MiB)
    model.iteration()
    model.iteration()
    # a big evaluation buffer: the first cudaMalloc fails, cached segments are freed, the retry succeeds
    cached = sum(s.total_size for s in dev.segments if len(s.blocks) == 1 and s.blocks[0].state == "inactive")
    headroom = dev.capacity - dev.reserved
    assert cached > 64 * MiB, cached
    ev = model.m(headroom + cached // 2 - 12345)
    model.f(ev)
    keep = []
    for _ in range(3):
        keep.append(model.m(odd(rng, 40 * MiB, 90 * MiB)))
    small = [model.m(odd(rng, 2 * MiB, 9 * MiB)) for _ in range(6)]
    for a in small[::2]:
        model.f(a)
    # buffers of a data-loading stream: their own segments, cached once freed
    side = [model.m(odd(rng, 12 * MiB, 30 * MiB), stream=SIDE_STREAM) for _ in range(4)]
    for a in side[:3]:
        model.f(a)
    # the request that cannot be satisfied: cached segments are released, then the oom entry
    r = model.m(1000 * MiB, stacks.pick())
    assert r is None and dev.ooms, "oom case did not run out of memory"
    return snapshot_dict(sim, 1, ann=[]), sim, 4


def case_oom_fragmentation():
    """Cached free memory that no request can use: 3-8 MiB tensors share 20 MiB segments, then all
    but one tensor per segment are freed. Every segment stays pinned by its survivor, so the cache
    release before the oom frees nothing; the holes add up to far more than the request, but each
    is smaller than it, and the GPU itself is nearly full."""
    rng = random.Random(111)
    sim = Sim(rng)
    dev = sim.add_device(0, addr_base=addr_slot(24))
    stacks = StackPool(rng)
    model = Model(sim, dev, rng, stacks, n_weights=3, w_lo=24 * MiB, w_hi=40 * MiB, n_layers=4,
                  a_lo=1200 * KiB, a_hi=6 * MiB)
    model.iteration()
    mids = [model.m(odd(rng, 3 * MiB, 8 * MiB), rng.choice(model.fwd)) for _ in range(120)]
    by_seg = {}
    for a in mids:
        by_seg.setdefault(id(a.block.seg), []).append(a)
    survivors = []
    for group in by_seg.values():
        keep = group[len(group) // 2]
        survivors.append(keep)
        for a in group:
            if a is not keep:
                model.f(a)
    dev.capacity = dev.reserved + 14 * MiB + 1536 * KiB
    request = 36 * MiB + 4321
    r = model.m(request, stacks.pick())
    assert r is None and len(dev.ooms) == 1, "fragmentation case did not run out of memory"
    st = dev.oom_states[0]
    assert st["verdict"] == "fragmentation", st
    assert st["pool_cached_free_bytes"] > 4 * request and st["pool_largest_free_bytes"] < request
    # the program catches the error and drops a few tensors
    for a in survivors[:5]:
        if a.block_size == round_size(a.bytes):
            model.f(a)
    check_oom_replayable(dev)
    return snapshot_dict(sim, 1, ann=[]), sim, 4


def case_oom_full():
    """Truly out of memory: large tensors, each in its own segment, hold nearly all of a 2 GiB
    GPU; what is cached free or still free on the device is far below the request."""
    rng = random.Random(121)
    sim = Sim(rng)
    dev = sim.add_device(0, addr_base=addr_slot(25))
    stacks = StackPool(rng)
    model = Model(sim, dev, rng, stacks, n_weights=9, w_lo=120 * MiB, w_hi=170 * MiB, n_layers=4,
                  a_lo=12 * MiB, a_hi=30 * MiB)
    model.iteration()
    held = [model.m(odd(rng, 20 * MiB, 60 * MiB), rng.choice(model.fwd)) for _ in range(6)]
    small = [model.m(odd(rng, 2 * KiB, 200 * KiB), rng.choice(model.bwd)) for _ in range(12)]
    for a in small[::3]:
        model.f(a)
    dev.capacity = dev.reserved + 24 * MiB
    request = 600 * MiB + 1000
    r = model.m(request, stacks.pick())
    assert r is None and len(dev.ooms) == 1, "full case did not run out of memory"
    st = dev.oom_states[0]
    assert st["verdict"] == "out-of-memory", st
    assert st["active_bytes"] > 0.9 * dev.capacity
    for a in held[:2] + small[1:3]:
        if a.block_size == round_size(a.bytes):
            model.f(a)
    check_oom_replayable(dev)
    return snapshot_dict(sim, 1, ann=[]), sim, 4


def case_multi_device():
    rng = random.Random(51)
    sim = Sim(rng)
    stacks = StackPool(rng)
    devs = [sim.add_device(i, addr_base=addr_slot(5 + i),
                           clock=1757253255000000 + i * 1000) for i in range(5)]
    models = {}
    # before recording starts: device 1 and device 3 already hold memory
    models[1] = Model(sim, devs[1], rng, stacks, n_weights=4, w_lo=10 * MiB, w_hi=30 * MiB,
                      n_layers=4, a_lo=2 * MiB, a_hi=12 * MiB)
    pre1 = [models[1].m(odd(rng, 5 * MiB, 25 * MiB)) for _ in range(3)]
    m3 = Model(sim, devs[3], rng, stacks, n_weights=5, w_lo=2 * MiB, w_hi=40 * MiB,
               n_layers=3, a_lo=MiB, a_hi=8 * MiB)
    m3.iteration()
    sim.start_recording()
    models[0] = Model(sim, devs[0], rng, stacks, n_weights=5, w_lo=8 * MiB, w_hi=40 * MiB,
                      n_layers=5, a_lo=1500 * KiB, a_hi=20 * MiB)
    models[2] = Model(sim, devs[2], rng, stacks, n_weights=3, w_lo=20 * MiB, w_hi=60 * MiB,
                      n_layers=4, a_lo=3 * MiB, a_hi=30 * MiB, stream=DEV2_STREAM)
    for it in range(2):
        for i in (0, 1, 2):
            models[i].iteration(scale=1.0 + 0.3 * it)
    for a in pre1[:2]:
        models[1].f(a)
    return snapshot_dict(sim, 5, ann=annotations(sim, ["ProfilerStep#0"])), sim, 4


def case_legacy_bare_list():
    rng = random.Random(61)
    sim = Sim(rng)
    dev = sim.add_device(1, addr_base=addr_slot(20))
    stacks = StackPool(rng)
    model = Model(sim, dev, rng, stacks, n_weights=7, w_lo=2 * MiB, w_hi=36 * MiB, n_layers=5,
                  a_lo=800 * KiB, a_hi=16 * MiB)
    model.iteration()
    held = []
    model.iteration(hold=lambda mdl: held.extend(mdl.m(odd(rng, 100, 3 * MiB)) for _ in range(6)))
    for a in held[::2]:
        model.f(a)
    dev.record_start = len(dev.entries)  # no trace at all
    return sim.segments_out(), sim, 4


def case_legacy_history():
    rng = random.Random(71)
    sim = Sim(rng, time_us=False, compile_context=False, legacy=True)
    dev = sim.add_device(0, addr_base=addr_slot(21), free_mode="legacy")
    stacks = StackPool(rng, legacy_key_order=True)
    model = Model(sim, dev, rng, stacks, n_weights=6, w_lo=4 * MiB, w_hi=40 * MiB, n_layers=5,
                  a_lo=1100 * KiB, a_hi=18 * MiB)
    # the largest weight is replaced in place before recording: its block's history has two entries,
    # the last one being the live allocation
    old = max(model.weights, key=lambda a: a.bytes)
    model.f(old)
    new = model.m(old.bytes + 3, stacks.pick())
    assert new.addr == old.addr and len(new.block.history) == 2
    model.iteration()
    pre = [model.m(odd(rng, 8 * MiB, 30 * MiB)) for _ in range(4)]
    sim.start_recording()
    model.iteration(scale=1.2)
    for a in pre[:2]:
        model.f(a)
    model.iteration(scale=0.9)
    sim.snapshot_event(dev)
    d = {"segments": sim.segments_out(legacy=True), "traces": sim.traces_out(1)}
    return d, sim, 4


def case_pending_free():
    rng = random.Random(81)
    sim = Sim(rng, user_metadata=True)
    dev = sim.add_device(0, addr_base=addr_slot(22))
    stacks = StackPool(rng)
    model = Model(sim, dev, rng, stacks, n_weights=5, w_lo=6 * MiB, w_hi=30 * MiB, n_layers=5,
                  a_lo=1100 * KiB, a_hi=16 * MiB)
    done_stack = stacks.pick()
    pending = []
    for it in range(3):
        # tensors handed to a side stream (record_stream): their free is deferred
        for _ in range(3):
            a = model.m(odd(rng, 600 * KiB, 12 * MiB))
            model.f(a, defer=True)
            pending.append(a)
        model.iteration()
        while len(pending) > 2:
            sim.complete(pending.pop(0), done_stack)
        # CUDA-graph capture into a private pool on the capture stream
        g = [sim.malloc(dev, odd(rng, 300 * KiB, 18 * MiB), rng.choice(model.fwd), CAPTURE_STREAM, PRIVATE_POOL)
             for _ in range(4)]
        for a in g[1::2]:
            sim.free(a, rng.choice(model.frees))
        # a side-stream allocation
        s = sim.malloc(dev, odd(rng, 2 * MiB, 9 * MiB), rng.choice(model.fwd), SIDE_STREAM)
        if it < 2:
            sim.free(s, rng.choice(model.frees))
    for _ in range(2):
        a = model.m(odd(rng, 3 * MiB, 20 * MiB))
        model.f(a, defer=True)
    return snapshot_dict(sim, 1, ann=[]), sim, 4


def case_no_free_completed():
    rng = random.Random(91)
    sim = Sim(rng, free_frames=False)
    dev = sim.add_device(0, addr_base=addr_slot(23), free_mode="requested_only")
    stacks = StackPool(rng)
    model = Model(sim, dev, rng, stacks, n_weights=6, w_lo=10 * MiB, w_hi=40 * MiB, n_layers=4,
                  a_lo=1100 * KiB, a_hi=12 * MiB)
    big = [model.m(odd(rng, 20 * MiB, 70 * MiB)) for _ in range(8)]
    sim.start_recording()   # the trace starts at the highest point: peak at the baseline
    for a in big[::2]:
        model.f(a)
    model.iteration(scale=0.8)
    model.iteration(scale=0.9)
    return snapshot_dict(sim, 1, ann=[]), sim, 4


def case_big_ints():
    rng = random.Random(101)
    sim = Sim(rng, user_metadata=True)
    base = 2 ** 47 - 96 * GiB
    dev = sim.add_device(0, addr_base=base)
    stacks = StackPool(rng)
    huge_line = stacks.frame("init_gpu_context", f"{SITE}/_subclasses/fake_tensor.py", 2 ** 64 - 1)
    big_stack = stacks.make_stack(depth=22, special=huge_line)
    model = Model(sim, dev, rng, stacks, n_weights=4, w_lo=100 * MiB, w_hi=300 * MiB, n_layers=4,
                  a_lo=4 * MiB, a_hi=64 * MiB)
    huge = sim.malloc(dev, 6 * GiB + 12345, big_stack)          # > 2**32 bytes
    mid = sim.malloc(dev, 3 * GiB + 777, stacks.pick())          # in [2**31, 2**32)
    model.iteration()
    sim.free(mid, stacks.pick())
    model.iteration(scale=1.3)
    assert dev.next_addr < 2 ** 47
    assert huge is not None
    d = snapshot_dict(sim, 1, ann=[], extra_settings={"x_test_negative_big": -2 ** 70,
                                                       "x_test_positive_big": 2 ** 80})
    d["x_extra"] = {"neg": -2 ** 70, "small_neg": -5, "big_line": 2 ** 64 - 1}
    return d, sim, 4


CASES = [
    ("basic_p4", "pickle", case_basic_p4,
     "one device, a few hundred events, segment_alloc + alloc/free_requested/free_completed, protocol 4, time_us, external_annotations"),
    ("protocol2", "pickle", case_protocol2,
     "same kind of content pickled with protocol 2 (BINPUT memo, no FRAME), no compile_context"),
    ("protocol5", "pickle", case_protocol5,
     "same kind of content pickled with protocol 5, newest key set (compile_context, user_metadata)"),
    ("ring_wrap", "pickle", case_ring_wrap,
     "long run, only the newest entries kept (ring buffer): starts with a free_completed, baseline > 0, unmatched frees, pre-trace allocations live at the peak"),
    ("expandable", "pickle", case_expandable,
     "expandable segments: segment_map/segment_unmap, no segment_alloc, is_expandable, one large segment growing, shrinking (empty_cache) and growing again"),
    ("oom", "pickle", case_oom,
     "memory fills up: cudaMalloc retry after segment_free succeeds once, later segment_free entries then an oom entry (device_free, no addr) at the end"),
    ("oom_fragmentation", "pickle", case_oom_fragmentation,
     "an oom caused by fragmentation: 20 MiB segments each pinned by one live tensor, their holes add up to far more than the request but each is smaller, expandable_segments False, little device_free"),
    ("oom_full", "pickle", case_oom_full,
     "an oom where live tensors hold nearly all memory: cached free plus device_free is far below the request"),
    ("multi_device", "pickle", case_multi_device,
     "5 device trace lists: devices 0-2 traced (device 1 has memory from before recording, device 2 a non-default stream), device 3 segments but an empty trace, device 4 nothing (absent)"),
    ("legacy_bare_list", "pickle", case_legacy_bare_list,
     "very old layout: top level is a bare list of segments (device 1 only), no traces"),
    ("legacy_history", "pickle", case_legacy_history,
     "PyTorch 2.0 layout: blocks with history instead of address/frames, no segment_pool_id/is_expandable, no time_us, single `free` action, `traces` key, a snapshot entry"),
    ("pending_free", "pickle", case_pending_free,
     "record_stream-style deferred frees (active_pending_free blocks, some never completed), private pool (0,1) segments on a capture stream, a side stream"),
    ("gzip", "gzip", case_gzip, "a protocol-4 snapshot compressed with gzip (.pickle.gz)"),
    ("html", "html", case_html,
     "the HTML page `torch.cuda._memory_viz trace_plot` writes, snapshot embedded as base64 (NUL-padded pickle)"),
    ("no_free_completed", "pickle", case_no_free_completed,
     "frees are free_requested only (no free_completed) and carry no frames key; recording starts at the highest point so the peak is the baseline (-1)"),
    ("big_ints", "pickle", case_big_ints,
     "addresses near 2**47, a 6 GiB and a 3 GiB allocation, a frame line of 2**64-1 (reported as -1), -2**70 and 2**80 in harmless extra fields, max_split_size -1"),
]

EXT = {"pickle": "pickle", "gzip": "pickle.gz", "html": "html"}

HTML_TEMPLATE = r"""
<!DOCTYPE html>
<html>
<head>
</head>
<body>
<script type="module">
import {add_local_files} from "https://cdn.jsdelivr.net/gh/pytorch/pytorch@main/torch/utils/viz/MemoryViz.js"
const local_files = $SNAPSHOT
add_local_files(local_files, $VIZ_KIND)
</script>
</body>
"""


def encode(obj, protocol, fmt):
    raw = pickle.dumps(obj, protocol=protocol)
    if fmt == "pickle":
        return raw
    if fmt == "gzip":
        return gzip.compress(raw, compresslevel=9, mtime=0)
    if fmt == "html":
        # exactly like torch.cuda._memory_viz._format_viz
        buffer = raw + b"\x00" * (3 - len(raw) % 3)
        encoded = base64.b64encode(buffer).decode("utf-8")
        json_format = json.dumps([{"name": "snapshot.pickle", "base64": encoded}])
        page = HTML_TEMPLATE.replace("$VIZ_KIND", repr("Active Memory Timeline")).replace("$SNAPSHOT", json_format)
        return page.encode("utf-8")
    raise ValueError(fmt)


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    outdir = argv[1]
    os.makedirs(outdir, exist_ok=True)
    manifest = []
    for name, fmt, fn, desc in CASES:
        obj, sim, protocol = fn()
        data = encode(obj, protocol, fmt)
        fname = f"{name}.{EXT[fmt]}"
        with open(os.path.join(outdir, fname), "wb") as fh:
            fh.write(data)
        expected = {
            "schema": SCHEMA,
            "file": fname,
            "bytes": len(data),
            "pickle_protocol": protocol,
            "devices": sim.expected_devices(),
        }
        with open(os.path.join(outdir, f"{name}.expected.json"), "w") as fh:
            json.dump(expected, fh, indent=1)
            fh.write("\n")
        ooms = expected_ooms(sim)
        if ooms:
            # what the OOM explainer must find at each oom entry (test/unit/oom-explainer.test.ts)
            with open(os.path.join(outdir, f"{name}.oom.json"), "w") as fh:
                json.dump({"file": fname, "devices": ooms}, fh, indent=1)
                fh.write("\n")
        manifest.append({"case": name, "file": fname, "description": desc})
    with open(os.path.join(outdir, "manifest.json"), "w") as fh:
        json.dump(manifest, fh, indent=1)
        fh.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
