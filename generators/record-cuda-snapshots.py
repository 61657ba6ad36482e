#!/usr/bin/env python3
"""Records real CUDA memory snapshots, with the allocator's own figures beside each (the truth).

Run on a machine with a CUDA GPU and PyTorch:

    python3 generators/record-cuda-snapshots.py --out DIR

It writes DIR/cuda-snapshots.tar.gz (one .pickle and one .truth.json per scenario, plus
truth.json with them all) and DIR/truth.json. Each scenario runs in a child process of its own, so
that each starts with a fresh caching allocator (memory_allocated() is 0 at its start) and the
expandable-segments one can set PYTORCH_CUDA_ALLOC_CONF before CUDA starts.

Scenarios (test/fixtures/cuda-h200/README.md says what each file shows):
  steps       a small transformer, 6 AdamW steps under torch.profiler.profile(schedule=...), which
              brackets each step with record_function("ProfilerStep#N"): the snapshot records
              these as `external_annotations` (_record_memory_history registers a RecordFunction
              callback for user-scope spans on the calling thread).
  leak        an MLP, 8 steps in record_function("ProfilerStep#N") spans, each keeping one more
              8 MiB tensor alive in a Python list; recording starts after the model is built, so
              the file starts with memory already in use.
  oom         per-process memory fraction of 2 GiB; 256 MiB tensors until OutOfMemoryError, then
              one odd-sized request (1 GiB + 12345 bytes) that fails too; dumped after the second.
              C++ frames too (stacks="all").
  expandable  PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True, an MLP with growing batches, then
              empty_cache() (segment_map / segment_unmap).
  rank_0..3   four processes of one "job" on cuda:0 (RANK=0..3), the same MLP loop; rank 2 leaks
              16 MiB a step.

--dry-run runs the same code on the CPU with the CUDA calls replaced by stand-ins (the files it
writes are not snapshots), to check the script before spending device time.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import pickle
import platform
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import traceback

MIB = 1024 * 1024
GIB = 1024 * MIB
SCENARIOS = ["steps", "leak", "oom", "expandable", "rank_0", "rank_1", "rank_2", "rank_3"]
LEAKING_RANK = 2
CHILD_TIMEOUT_S = 120
RETRY_TIMEOUT_S = 90

# memory_stats() keys kept in the truth (the rest is per-pool detail).
STAT_KEYS = [
    "allocated_bytes.all.current",
    "allocated_bytes.all.peak",
    "reserved_bytes.all.current",
    "reserved_bytes.all.peak",
    "active_bytes.all.current",
    "active_bytes.all.peak",
    "requested_bytes.all.current",
    "requested_bytes.all.peak",
    "inactive_split_bytes.all.current",
    "num_alloc_retries",
    "num_ooms",
    "num_device_alloc",
    "num_device_free",
    "segment.all.current",
]


# ---------------------------------------------------------------------------------------------
# The CUDA calls, real or stand-ins (--dry-run)


class RealCuda:
    device = "cuda"

    def __init__(self, torch):
        self.torch = torch

    def start_recording(self, max_entries, stacks):
        self.torch.cuda.memory._record_memory_history(
            "all", context="all", stacks=stacks, max_entries=max_entries
        )

    def dump(self, path):
        self.torch.cuda.memory._dump_snapshot(path)

    def stop_recording(self):
        self.torch.cuda.memory._record_memory_history(None)

    def figures(self):
        t = self.torch
        t.cuda.synchronize()
        stats = t.cuda.memory_stats()
        return {
            "time_us": time.time_ns() // 1000,
            "memory_allocated": t.cuda.memory_allocated(),
            "memory_reserved": t.cuda.memory_reserved(),
            "max_memory_allocated": t.cuda.max_memory_allocated(),
            "max_memory_reserved": t.cuda.max_memory_reserved(),
            "stats": {key: stats.get(key) for key in STAT_KEYS},
        }

    def set_fraction(self, limit_bytes):
        total = self.torch.cuda.get_device_properties(0).total_memory
        fraction = limit_bytes / total
        self.torch.cuda.set_per_process_memory_fraction(fraction, 0)
        return {"total_memory": total, "fraction": fraction, "limit_bytes": limit_bytes}

    def empty_cache(self):
        self.torch.cuda.empty_cache()


class FakeCuda:
    """CPU stand-ins: the same calls, no CUDA. The 'snapshot' is a tiny dict, not a real one."""

    device = "cpu"

    def __init__(self, torch):
        self.torch = torch
        self.limit = None
        self.held = 0

    def start_recording(self, max_entries, stacks):
        assert stacks in ("python", "all") and max_entries > 0

    def dump(self, path):
        with open(path, "wb") as f:
            pickle.dump({"segments": [], "device_traces": [[]], "external_annotations": []}, f)

    def stop_recording(self):
        pass

    def figures(self):
        return {
            "time_us": time.time_ns() // 1000,
            "memory_allocated": 0,
            "memory_reserved": 0,
            "max_memory_allocated": 0,
            "max_memory_reserved": 0,
            "stats": {key: 0 for key in STAT_KEYS},
        }

    def set_fraction(self, limit_bytes):
        self.limit = limit_bytes
        return {"total_memory": 0, "fraction": 0.0, "limit_bytes": limit_bytes}

    def empty_cache(self):
        pass

    def check_oom(self, nbytes):
        # Stand-in for the allocator's refusal, with PyTorch's wording.
        if self.limit is not None and self.held + nbytes > self.limit:
            raise self.torch.OutOfMemoryError(
                f"CUDA out of memory. Tried to allocate {nbytes / MIB:.2f} MiB. (dry run)"
            )
        self.held += nbytes


# ---------------------------------------------------------------------------------------------
# Scenarios (each in its own child process)


def mlp(torch, width):
    nn = torch.nn
    return nn.Sequential(
        nn.Linear(width, 4 * width), nn.GELU(), nn.Linear(4 * width, width), nn.LayerNorm(width)
    )


def train_step(torch, model, optimizer, batch, width, device):
    x = torch.randn(batch, width, device=device)
    target = torch.randn(batch, width, device=device)
    loss = torch.nn.functional.mse_loss(model(x), target)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
    return float(loss.item())


def scenario_steps(torch, cuda, truth, path):
    nn = torch.nn
    cuda.start_recording(max_entries=30000, stacks="python")
    truth["recording_started"] = cuda.figures()
    d_model, seq, batch = 256, 128, 16
    layer = nn.TransformerEncoderLayer(d_model, nhead=4, dim_feedforward=1024, batch_first=True)
    model = nn.TransformerEncoder(layer, num_layers=2).to(cuda.device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    truth["model_built"] = cuda.figures()
    steps = []
    activities = [torch.profiler.ProfilerActivity.CPU]
    schedule = torch.profiler.schedule(wait=1, warmup=1, active=2, repeat=1)
    with torch.profiler.profile(activities=activities, schedule=schedule) as prof:
        for i in range(6):
            x = torch.randn(batch, seq, d_model, device=cuda.device)
            loss = model(x).pow(2).mean()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            del x, loss
            steps.append({"step": i, "annotation": f"ProfilerStep#{i}", **cuda.figures()})
            prof.step()
    truth["steps"] = steps
    truth["profiler"] = "torch.profiler.profile(activities=[CPU], schedule(wait=1, warmup=1, active=2))"
    truth["at_dump"] = cuda.figures()
    cuda.dump(path)


def scenario_leak(torch, cuda, truth, path):
    width, batch, leak_bytes = 512, 64, 8 * MIB
    model = mlp(torch, width).to(cuda.device)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
    truth["before_recording"] = cuda.figures()
    cuda.start_recording(max_entries=20000, stacks="python")
    truth["recording_started"] = cuda.figures()
    kept = []
    steps = []
    for i in range(8):
        with torch.profiler.record_function(f"ProfilerStep#{i}"):
            train_step(torch, model, optimizer, batch, width, cuda.device)
            # The leak: one more tensor of exactly leak_bytes kept alive every step.
            kept.append(torch.full((leak_bytes // 4,), float(i), device=cuda.device))
        steps.append({"step": i, "annotation": f"ProfilerStep#{i}", **cuda.figures()})
    truth["steps"] = steps
    truth["leak_bytes_per_step"] = leak_bytes
    truth["leaked_tensors"] = len(kept)
    truth["at_dump"] = cuda.figures()
    cuda.dump(path)


def scenario_oom(torch, cuda, truth, path):
    limit = 2 * GIB
    truth["memory_fraction"] = cuda.set_fraction(limit)
    stacks = "python" if os.environ.get("RECORD_OOM_PYTHON_STACKS") else "all"
    truth["stacks"] = stacks
    cuda.start_recording(max_entries=5000, stacks=stacks)
    truth["recording_started"] = cuda.figures()
    chunk = 256 * MIB
    held = []
    ooms = []
    for _ in range(64):
        try:
            if isinstance(cuda, FakeCuda):
                cuda.check_oom(chunk)
            held.append(torch.empty(chunk, dtype=torch.uint8, device=cuda.device))
        except torch.OutOfMemoryError as error:
            ooms.append({"requested_bytes": chunk, "message": str(error), **cuda.figures()})
            break
    odd = GIB + 12345
    try:
        if isinstance(cuda, FakeCuda):
            cuda.check_oom(odd)
        held.append(torch.empty(odd, dtype=torch.uint8, device=cuda.device))
    except torch.OutOfMemoryError as error:
        ooms.append({"requested_bytes": odd, "message": str(error), **cuda.figures()})
    truth["chunks_held"] = len(held)
    truth["chunk_bytes"] = chunk
    truth["ooms"] = ooms
    truth["at_dump"] = cuda.figures()
    cuda.dump(path)


def scenario_expandable(torch, cuda, truth, path):
    truth["PYTORCH_CUDA_ALLOC_CONF"] = os.environ.get("PYTORCH_CUDA_ALLOC_CONF")
    cuda.start_recording(max_entries=20000, stacks="python")
    truth["recording_started"] = cuda.figures()
    width = 1024
    model = mlp(torch, width).to(cuda.device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    steps = []
    for i, batch in enumerate([64, 256, 1024, 4096, 1024, 256]):
        with torch.profiler.record_function(f"ProfilerStep#{i}"):
            train_step(torch, model, optimizer, batch, width, cuda.device)
        steps.append({"step": i, "batch": batch, **cuda.figures()})
    truth["steps"] = steps
    truth["before_empty_cache"] = cuda.figures()
    cuda.empty_cache()
    truth["at_dump"] = cuda.figures()
    cuda.dump(path)


def scenario_rank(torch, cuda, truth, path):
    rank = int(os.environ["RANK"])
    truth["rank"] = rank
    torch.manual_seed(rank)
    leak_bytes = 16 * MIB if rank == LEAKING_RANK else 0
    truth["leak_bytes_per_step"] = leak_bytes
    cuda.start_recording(max_entries=8000, stacks="python")
    truth["recording_started"] = cuda.figures()
    width, batch = 512, 128
    model = mlp(torch, width).to(cuda.device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    kept = []
    steps = []
    for i in range(6):
        with torch.profiler.record_function(f"ProfilerStep#{i}"):
            train_step(torch, model, optimizer, batch, width, cuda.device)
            if leak_bytes:
                kept.append(torch.ones(leak_bytes // 4, device=cuda.device))
        steps.append({"step": i, **cuda.figures()})
    truth["steps"] = steps
    truth["at_dump"] = cuda.figures()
    cuda.dump(path)


def run_child(name, workdir, dry_run):
    import torch

    cuda = FakeCuda(torch) if dry_run else RealCuda(torch)
    truth = {"scenario": name, "torch": torch.__version__, "pid": os.getpid()}
    path = os.path.join(workdir, f"{name}.pickle")
    started = time.time()
    scenario = {
        "steps": scenario_steps,
        "leak": scenario_leak,
        "oom": scenario_oom,
        "expandable": scenario_expandable,
    }.get(name, scenario_rank)
    scenario(torch, cuda, truth, path)
    cuda.stop_recording()
    truth["seconds"] = round(time.time() - started, 2)
    with open(os.path.join(workdir, f"{name}.truth.json"), "w") as f:
        json.dump(truth, f, indent=1)
    print(f"[{name}] done in {truth['seconds']} s", flush=True)


# ---------------------------------------------------------------------------------------------
# The parent: runs the children, checks each file in Python, packs the results.


def child_env(name, dry_run):
    env = dict(os.environ)
    env["PYTHONUNBUFFERED"] = "1"
    env.pop("PYTORCH_CUDA_ALLOC_CONF", None)
    if name == "expandable":
        env["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"
    if name.startswith("rank_"):
        env["RANK"] = name.split("_")[1]
        env["WORLD_SIZE"] = "4"
    return env


def start_children(names, workdir, dry_run):
    children = {}
    for name in names:
        command = [sys.executable, os.path.abspath(__file__), "--child", name, "--workdir", workdir]
        if dry_run:
            command.append("--dry-run")
        log = open(os.path.join(workdir, f"{name}.log"), "w")
        children[name] = (subprocess.Popen(command, env=child_env(name, dry_run), stdout=log, stderr=subprocess.STDOUT), log)
    return children


def wait_children(children, timeout_s):
    deadline = time.time() + timeout_s
    codes = {}
    for name, (proc, log) in children.items():
        try:
            codes[name] = proc.wait(timeout=max(1, deadline - time.time()))
        except subprocess.TimeoutExpired:
            proc.kill()
            codes[name] = "timeout"
        log.close()
    return codes


def python_figures(path):
    """What the file says, computed here with plain Python (a cross-check for the test)."""
    with open(path, "rb") as f:
        data = pickle.load(f)
    if not isinstance(data, dict) or "segments" not in data:
        return {"not_a_snapshot": True}
    segments = data["segments"]
    blocks = [b for s in segments for b in s["blocks"]]
    active = [b for b in blocks if b["state"] in ("active_allocated", "active_pending_free")]
    traces = data.get("device_traces", [])
    actions = {}
    for trace in traces:
        for entry in trace:
            actions[entry["action"]] = actions.get(entry["action"], 0) + 1
    ooms = [
        {k: e.get(k) for k in ("size", "device_free", "time_us")}
        for trace in traces
        for e in trace
        if e["action"] == "oom"
    ]
    annotations = data.get("external_annotations")
    return {
        "keys": sorted(data.keys()),
        "segments": len(segments),
        "expandable_segments": sum(1 for s in segments if s.get("is_expandable")),
        "blocks": len(blocks),
        "reserved_final": sum(s["total_size"] for s in segments),
        "allocated_final": sum(b["size"] for b in blocks if b["state"] == "active_allocated"),
        "active_final_requested": sum(b["requested_size"] for b in active),
        "trace_entries": [len(t) for t in traces],
        "actions": actions,
        "ooms": ooms,
        "annotations": None if annotations is None else len(annotations),
        "annotation_names": None
        if annotations is None
        else sorted({a.get("name") for a in annotations if isinstance(a, dict)}),
        "user_defined_entries": actions.get("user_defined", 0),
        "allocator_settings": data.get("allocator_settings"),
    }


def versions(dry_run):
    import torch

    info = {
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    if not dry_run and torch.cuda.is_available():
        props = torch.cuda.get_device_properties(0)
        info["device_name"] = props.name
        info["total_memory"] = props.total_memory
        info["capability"] = f"{props.major}.{props.minor}"
    smi = shutil.which("nvidia-smi")
    if smi:
        try:
            out = subprocess.run(
                [smi, "--query-gpu=name,driver_version,memory.total", "--format=csv,noheader"],
                capture_output=True, text=True, timeout=30,
            )
            info["nvidia_smi"] = out.stdout.strip()
        except Exception as error:  # noqa: BLE001 (a report, not a failure)
            info["nvidia_smi"] = f"failed: {error}"
    return info


def memory_viz_stats(path, dry_run):
    if dry_run:
        return "(dry run)"
    try:
        from torch.cuda import _memory_viz

        with open(path, "rb") as f:
            text = _memory_viz.segsum(pickle.load(f))
        lines = text.splitlines()
        return "\n".join(lines[:3] + ["..."] + lines[-12:]) if len(lines) > 16 else text
    except Exception as error:  # noqa: BLE001
        return f"_memory_viz stats failed: {error!r}"


def parent(args):
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    workdir = os.path.abspath(args.workdir or tempfile.mkdtemp(prefix="record-cuda-"))
    os.makedirs(workdir, exist_ok=True)
    started = time.time()
    info = versions(args.dry_run)
    print("versions:", json.dumps(info), flush=True)

    names = args.only.split(",") if args.only else SCENARIOS
    codes = wait_children(start_children(names, workdir, args.dry_run), CHILD_TIMEOUT_S)
    # OOM with C++ frames may be slow to symbolize; if it failed, record it again with Python frames.
    if "oom" in codes and codes["oom"] != 0:
        with open(os.path.join(workdir, "oom.log")) as f:
            print(f"[oom] failed ({codes['oom']}):\n{f.read()[-3000:]}", flush=True)
        os.replace(os.path.join(workdir, "oom.log"), os.path.join(workdir, "oom-first-try.log"))
        print("[oom] again with stacks='python'", flush=True)
        global_note = "oom recorded with python stacks after the stacks='all' run failed"
        os.environ["RECORD_OOM_PYTHON_STACKS"] = "1"
        retry = start_children(["oom"], workdir, args.dry_run)
        codes["oom_retry"] = wait_children(retry, RETRY_TIMEOUT_S)["oom"]
        info["note"] = global_note
    print("exit codes:", codes, flush=True)

    combined = {"versions": info, "exit_codes": {k: str(v) for k, v in codes.items()}, "scenarios": {}}
    for name in names:
        log_path = os.path.join(workdir, f"{name}.log")
        with open(log_path) as f:
            log_text = f.read()
        print(f"----- {name} log (last 1500 chars)\n{log_text[-1500:]}", flush=True)
        pickle_path = os.path.join(workdir, f"{name}.pickle")
        truth_path = os.path.join(workdir, f"{name}.truth.json")
        if not (os.path.exists(pickle_path) and os.path.exists(truth_path)):
            print(f"[{name}] no snapshot", flush=True)
            continue
        with open(truth_path) as f:
            truth = json.load(f)
        try:
            truth["file"] = python_figures(pickle_path)
        except Exception:  # noqa: BLE001
            truth["file"] = {"error": traceback.format_exc()}
        truth["file_bytes"] = os.path.getsize(pickle_path)
        with open(pickle_path, "rb") as f:
            gz_bytes = len(gzip.compress(f.read(), 6))
        truth["file_gzip_bytes"] = gz_bytes
        with open(truth_path, "w") as f:
            json.dump(truth, f, indent=1)
        combined["scenarios"][name] = truth
        brief = {k: truth["file"].get(k) for k in ("segments", "reserved_final", "allocated_final", "active_final_requested", "trace_entries", "actions", "ooms", "annotations", "annotation_names")}
        at_dump = truth.get("at_dump", {})
        print(f"[{name}] {truth['file_bytes']} B ({gz_bytes} B gzipped); file: {json.dumps(brief)}", flush=True)
        print(f"[{name}] torch at dump: allocated={at_dump.get('memory_allocated')} reserved={at_dump.get('memory_reserved')} requested={at_dump.get('stats', {}).get('requested_bytes.all.current')}", flush=True)
        print(f"[{name}] _memory_viz stats:\n{memory_viz_stats(pickle_path, args.dry_run)}", flush=True)

    combined["seconds"] = round(time.time() - started, 2)
    with open(os.path.join(workdir, "truth.json"), "w") as f:
        json.dump(combined, f, indent=1)
    shutil.copy(os.path.join(workdir, "truth.json"), os.path.join(out, "truth.json"))
    tar_path = os.path.join(out, "cuda-snapshots.tar.gz")
    with tarfile.open(tar_path, "w:gz") as tar:
        for entry in sorted(os.listdir(workdir)):
            if entry.endswith((".pickle", ".json", ".log")):
                tar.add(os.path.join(workdir, entry), arcname=f"cuda-snapshots/{entry}")
    print(f"wrote {tar_path}: {os.path.getsize(tar_path)} B in {combined['seconds']} s", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="folder for cuda-snapshots.tar.gz and truth.json")
    parser.add_argument("--workdir", help="folder for the children's files (default: a new temporary folder)")
    parser.add_argument("--only", help="comma-separated scenarios (default: all)")
    parser.add_argument("--dry-run", action="store_true", help="CPU stand-ins for the CUDA calls")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        run_child(args.child, args.workdir, args.dry_run)
    else:
        if not args.out:
            parser.error("--out is required")
        parent(args)


if __name__ == "__main__":
    main()
