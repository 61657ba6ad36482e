#!/usr/bin/env python3
"""Record the PyTorch profiler memory traces in test/fixtures/profiler/ with real PyTorch.

Small CPU training loops run under
``torch.profiler.profile(activities=[CPU], profile_memory=True, with_stack=True,
record_shapes=True, schedule=...)`` with ``prof.step()`` after each step:

  clean       an MLP trained with SGD: nothing outlives its step
  leak        the same loop, which also keeps LEAK_BYTES_PER_STEP bytes a step in a Python list
  dataloader  a DataLoader over a TensorDataset feeds the loop (num_workers=0: the batches are
              collated on the profiled thread)
  cuda_leak   only where torch.cuda.is_available(): the leak run on cuda:0, profiled with the
              CPU and CUDA activities (memory timeline of cuda:0); skipped, with a line saying so,
              elsewhere (the committed fixtures were recorded on a CPU-only machine)

Each run writes its Chrome trace (``export_chrome_trace``) as ``<run>.pt.trace.json.gz``, and
its memory timeline (``export_memory_timeline``) as ``<run>.memory-timeline.json`` and
``<run>.memory-timeline.raw.json.gz`` (deprecated in PyTorch 2.13, still written on CPU).
``manifest.json`` records the torch version and the planted truth; the tests read it.

Run from the repository root (the traces name the script by the path it was started with, so
the fixtures' Python frames read ``generators/record-profiler-traces.py(NN): leak_step``):

  python3 -m venv --system-site-packages /tmp/V
  /tmp/V/bin/pip install --no-deps --no-index "$PIP_FIND_LINKS"/torch-*.whl   # CPU torch 2.13
  /tmp/V/bin/python generators/record-profiler-traces.py [out-dir]   # default test/fixtures/profiler

Without torch the script says so and exits 1: the committed fixtures stand.
"""

import gzip
import json
import os
import subprocess
import sys
import warnings

SCRIPT = "generators/record-profiler-traces.py"
OUT_DIR = sys.argv[1] if len(sys.argv) > 1 else "test/fixtures/profiler"
# `--run NAME` (the script calling itself): record that run only, in a process of its own, so
# that PyTorch's count of allocated memory (the `Total Allocated` of each memory event) starts
# from nothing in every trace rather than from what an earlier run's profiler saw.
ONLY_RUN = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--run" else None

# The leak run keeps one tensor of exactly this many bytes per step (uint8: one byte a value).
LEAK_BYTES_PER_STEP = 1048576
# wait, warmup, active: the trace holds the ACTIVE steps only.
WAIT_STEPS = 1
WARMUP_STEPS = 1
ACTIVE_STEPS = 6

try:
    import torch
    from torch.profiler import ProfilerActivity, profile, schedule
    from torch.utils.data import DataLoader, TensorDataset
except ImportError as error:
    sys.exit(
        f"record-profiler-traces: PyTorch is not installed here ({error}); the committed "
        f"fixtures in {OUT_DIR} stand. Install the CPU wheel as the docstring says to re-record."
    )


def make_model():
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10)
    )
    return model, torch.optim.SGD(model.parameters(), lr=0.01)


def train_step(model, optimizer, inputs, targets):
    loss = torch.nn.functional.cross_entropy(model(inputs), targets)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


def random_batch():
    return torch.randn(32, 64), torch.randint(0, 10, (32,))


def clean_run(prof):
    model, optimizer = make_model()
    for _ in range(WAIT_STEPS + WARMUP_STEPS + ACTIVE_STEPS):
        train_step(model, optimizer, *random_batch())
        prof.step()


def leak_step(kept):
    # The planted leak: exactly LEAK_BYTES_PER_STEP bytes, held by a list that outlives the step.
    kept.append(torch.empty(LEAK_BYTES_PER_STEP, dtype=torch.uint8))


def leak_run(prof):
    model, optimizer = make_model()
    kept = []
    for _ in range(WAIT_STEPS + WARMUP_STEPS + ACTIVE_STEPS):
        train_step(model, optimizer, *random_batch())
        leak_step(kept)
        prof.step()


def dataloader_run(prof):
    model, optimizer = make_model()
    generator = torch.Generator().manual_seed(0)
    steps = WAIT_STEPS + WARMUP_STEPS + ACTIVE_STEPS
    dataset = TensorDataset(torch.randn(32 * steps, 64), torch.randint(0, 10, (32 * steps,)))
    loader = DataLoader(dataset, batch_size=32, shuffle=True, num_workers=0, generator=generator)
    for inputs, targets in loader:
        train_step(model, optimizer, inputs, targets)
        prof.step()


def cuda_leak_run(prof):
    # The leak run on the GPU: its [memory] events are Device Type 1 (cuda:0) with the caching
    # allocator's Total Reserved, beside the CPU ones of the batches made on the host.
    device = torch.device("cuda")
    model, optimizer = make_model()
    model.to(device)  # in place: the optimizer keeps the same parameters
    kept = []
    for _ in range(WAIT_STEPS + WARMUP_STEPS + ACTIVE_STEPS):
        inputs, targets = random_batch()
        train_step(model, optimizer, inputs.to(device), targets.to(device))
        kept.append(torch.empty(LEAK_BYTES_PER_STEP, dtype=torch.uint8, device=device))
        prof.step()
    torch.cuda.synchronize()


RUNS = {
    "clean": (clean_run, "an MLP (64-128-10) trained with SGD on random batches; nothing outlives its step"),
    "leak": (
        leak_run,
        f"the clean loop, plus leak_step() keeping a torch.empty({LEAK_BYTES_PER_STEP}, dtype=uint8) per step in a Python list",
    ),
    "dataloader": (
        dataloader_run,
        "the clean loop fed by a DataLoader (TensorDataset, batch_size=32, shuffle, num_workers=0)",
    ),
}


# Only where a GPU is (not on the machines that recorded the committed fixtures): the same leak,
# profiled with CUDA too.
if torch.cuda.is_available():
    RUNS["cuda_leak"] = (
        cuda_leak_run,
        f"the leak run on cuda:0 (model, batches and the kept torch.empty({LEAK_BYTES_PER_STEP}, dtype=uint8) per step on the GPU), profiled with CPU and CUDA activities",
    )

LEAKING_RUNS = {"leak", "cuda_leak"}


def record(name, run):
    cuda = name.startswith("cuda")
    with profile(
        activities=[ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if cuda else []),
        profile_memory=True,
        with_stack=True,
        record_shapes=True,
        schedule=schedule(wait=WAIT_STEPS, warmup=WARMUP_STEPS, active=ACTIVE_STEPS, repeat=1),
    ) as prof:
        run(prof)
    trace_json = os.path.join(OUT_DIR, f"{name}.pt.trace.json")
    prof.export_chrome_trace(trace_json)
    with open(trace_json, "rb") as plain, gzip.open(trace_json + ".gz", "wb", 9) as packed:
        packed.write(plain.read())
    os.remove(trace_json)
    outputs = [f"{name}.pt.trace.json.gz"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # deprecated, still written by 2.13
        for suffix in ("memory-timeline.json", "memory-timeline.raw.json.gz"):
            try:
                prof.export_memory_timeline(
                    os.path.join(OUT_DIR, f"{name}.{suffix}"), device="cuda:0" if cuda else "cpu"
                )
                outputs.append(f"{name}.{suffix}")
            except Exception as error:  # noqa: BLE001 - say which export failed, keep the rest
                print(f"{name}: export_memory_timeline {suffix} failed: {error!r}", file=sys.stderr)
    return outputs


def record_one(name):
    torch.set_num_threads(1)
    outputs = record(name, RUNS[name][0])
    print(json.dumps(outputs))


def main():
    if ONLY_RUN is not None:
        record_one(ONLY_RUN)
        return
    if not os.path.exists(SCRIPT):
        sys.exit(f"record-profiler-traces: run it from the repository root (no {SCRIPT} here)")
    os.makedirs(OUT_DIR, exist_ok=True)
    if "cuda_leak" not in RUNS:
        print("record-profiler-traces: no CUDA device here: the cuda_leak run is skipped", file=sys.stderr)
    manifest = {
        "torch": torch.__version__,
        "recorded_by": SCRIPT,
        "schedule": {"wait": WAIT_STEPS, "warmup": WARMUP_STEPS, "active": ACTIVE_STEPS},
        "runs": {},
    }
    for name, (_, what) in RUNS.items():
        done = subprocess.run(
            [sys.executable, SCRIPT, OUT_DIR, "--run", name],
            check=True,
            stdout=subprocess.PIPE,
            text=True,
        )
        outputs = json.loads(done.stdout.strip().splitlines()[-1])
        manifest["runs"][name] = {
            "what": what,
            "files": outputs,
            "leak_bytes_per_step": LEAK_BYTES_PER_STEP if name in LEAKING_RUNS else 0,
        }
        print(f"{name}: {', '.join(outputs)}")
    with open(os.path.join(OUT_DIR, "manifest.json"), "w") as out:
        json.dump(manifest, out, indent=2)
        out.write("\n")


if __name__ == "__main__":
    main()
