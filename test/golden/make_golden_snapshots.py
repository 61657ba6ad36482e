#!/usr/bin/env python3
"""Small, deterministic snapshots for the golden tests (test/golden/cli-output.test.ts).

Usage: python3 test/golden/make_golden_snapshots.py OUTDIR

Writes OUTDIR/<case>.pickle for each case below. The cases reuse the allocator simulation of
test/generators/make_snapshots.py (Sim, Model, StackPool: segments, block splitting and merging,
512-byte rounding, record_stream-style deferred frees, cache release before an OOM), but are
kept much smaller than the cases there (fewer events, shallow stacks), so that every golden
output stays small enough to review in a diff.

Deterministic: fixed seeds, no clock, no hash-dependent ordering. Changing anything here changes
the inputs, so every golden changes too (test/golden/__golden__/inputs.txt shows that first).
"""

import importlib.util
import os
import pickle
import random
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the generator we import
HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "make_snapshots", os.path.join(HERE, "..", "generators", "make_snapshots.py"))
gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen)

KiB, MiB = gen.KiB, gen.MiB
odd = gen.odd


class ShallowStackPool(gen.StackPool):
    """A few stacks of 5-9 Python frames (no C++ frames): the same shapes as the generator's,
    at a fraction of the bytes in every output that lists stacks."""

    def __init__(self, rng, n_stacks=10):
        super().__init__(rng, n_stacks=n_stacks)

    def make_stack(self, depth=None, special=None):
        return super().make_stack(depth or self.rng.randint(5, 9), special)


def case_training():
    """One device, a training-like loop: weights, two iterations of activations and gradients,
    optimizer state; several segments in both pools (small and large), profiler annotations."""
    rng = random.Random(1001)
    sim = gen.Sim(rng)
    dev = sim.add_device(0, addr_base=gen.addr_slot(1))
    stacks = ShallowStackPool(rng)
    model = gen.Model(sim, dev, rng, stacks, n_weights=5, w_lo=4 * MiB, w_hi=24 * MiB,
                      n_layers=4, a_lo=1200 * KiB, a_hi=12 * MiB, seg_frames=True)
    for it in range(2):
        model.iteration(scale=1.0 + 0.25 * it)
    for w in model.weights[:2]:
        model.m(w.bytes, rng.choice(model.bwd))  # optimizer state, kept
    ann = gen.annotations(sim, ["ProfilerStep#0", "ProfilerStep#1"])
    return gen.snapshot_dict(sim, 1, ann=ann)


def case_oom():
    """An OOM caused by fragmentation: mid-sized tensors share 20 MiB segments, all but one per
    segment are freed, so the holes add up to more than the request but none holds it."""
    rng = random.Random(1002)
    sim = gen.Sim(rng)
    dev = sim.add_device(0, addr_base=gen.addr_slot(2))
    stacks = ShallowStackPool(rng)
    model = gen.Model(sim, dev, rng, stacks, n_weights=3, w_lo=24 * MiB, w_hi=40 * MiB,
                      n_layers=3, a_lo=1200 * KiB, a_hi=6 * MiB)
    model.iteration()
    mids = [model.m(odd(rng, 3 * MiB, 8 * MiB), rng.choice(model.fwd)) for _ in range(24)]
    by_segment = {}
    for a in mids:
        by_segment.setdefault(a.block.seg.address, []).append(a)
    survivors = []
    for group in by_segment.values():
        keep = group[len(group) // 2]
        survivors.append(keep)
        for a in group:
            if a is not keep:
                model.f(a)
    dev.capacity = dev.reserved + 6 * MiB
    request = 16 * MiB + 4321
    assert model.m(request, stacks.pick()) is None and len(dev.ooms) == 1, "no OOM"
    assert dev.oom_states[0]["verdict"] == "fragmentation", dev.oom_states[0]
    # the program catches the error and drops a couple of tensors
    for a in survivors[:2]:
        if a.block_size == gen.round_size(a.bytes):
            model.f(a)
    gen.check_oom_replayable(dev)
    return gen.snapshot_dict(sim, 1, ann=[])


def case_multi():
    """Two devices, pools and streams: device 0 traces a default-stream model, CUDA-graph capture
    into a private pool (0,1) on a capture stream, a side stream, and record_stream-style deferred
    frees (some still pending at the end); device 1 works on a non-default stream and holds
    memory allocated before recording started (a non-zero baseline)."""
    rng = random.Random(1003)
    sim = gen.Sim(rng, user_metadata=True)
    dev0 = sim.add_device(0, addr_base=gen.addr_slot(3))
    dev1 = sim.add_device(1, addr_base=gen.addr_slot(4), clock=1757253255000000 + 1000)
    stacks = ShallowStackPool(rng)
    model1 = gen.Model(sim, dev1, rng, stacks, n_weights=3, w_lo=10 * MiB, w_hi=30 * MiB,
                       n_layers=3, a_lo=2 * MiB, a_hi=12 * MiB, stream=gen.DEV2_STREAM)
    before = [model1.m(odd(rng, 5 * MiB, 20 * MiB)) for _ in range(2)]
    sim.start_recording()
    model0 = gen.Model(sim, dev0, rng, stacks, n_weights=3, w_lo=6 * MiB, w_hi=24 * MiB,
                       n_layers=3, a_lo=1100 * KiB, a_hi=12 * MiB)
    done_stack = stacks.pick()
    pending = []
    for it in range(2):
        for _ in range(2):
            a = model0.m(odd(rng, 600 * KiB, 10 * MiB))
            model0.f(a, defer=True)
            pending.append(a)
        model0.iteration()
        while len(pending) > 1:
            sim.complete(pending.pop(0), done_stack)
        graph = [sim.malloc(dev0, odd(rng, 300 * KiB, 14 * MiB), rng.choice(model0.fwd),
                            gen.CAPTURE_STREAM, gen.PRIVATE_POOL) for _ in range(3)]
        for a in graph[1::2]:
            sim.free(a, rng.choice(model0.frees))
        side = sim.malloc(dev0, odd(rng, 2 * MiB, 8 * MiB), rng.choice(model0.fwd),
                          gen.SIDE_STREAM)
        if it == 0:
            sim.free(side, rng.choice(model0.frees))
        if it == 1:
            model1.iteration(scale=1.3)
    model1.f(before[0])
    return gen.snapshot_dict(sim, 2, ann=gen.annotations(sim, ["ProfilerStep#0"]))


def case_expandable():
    """Expandable segments: segment_map / segment_unmap instead of segment_alloc, one large
    segment growing, shrinking (empty_cache) and growing again, plus the small-pool one."""
    rng = random.Random(1004)
    sim = gen.Sim(rng)
    dev = sim.add_device(0, addr_base=gen.addr_slot(5), expandable=True)
    stacks = ShallowStackPool(rng)
    model = gen.Model(sim, dev, rng, stacks, n_weights=3, w_lo=8 * MiB, w_hi=40 * MiB,
                      n_layers=4, a_lo=1500 * KiB, a_hi=24 * MiB)
    model.iteration(scale=1.5)
    sim.release_cached(dev, stacks.pick())  # torch.cuda.empty_cache(): the segment shrinks
    model.iteration(scale=2.0)  # ... and grows again
    sim.release_cached(dev, stacks.pick())
    model.iteration(scale=0.8)
    return gen.snapshot_dict(sim, 1, ann=[], expandable=True)


CASES = [
    ("training", case_training),
    ("oom", case_oom),
    ("multi", case_multi),
    ("expandable", case_expandable),
]


def main(argv):
    if len(argv) != 2:
        print("usage: make_golden_snapshots.py OUTDIR", file=sys.stderr)
        return 2
    os.makedirs(argv[1], exist_ok=True)
    for name, make in CASES:
        with open(os.path.join(argv[1], f"{name}.pickle"), "wb") as fh:
            fh.write(pickle.dumps(make(), protocol=4))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
