"""Tests of the Python state reference (test/reference/state_reference.py).

Run: python3 test/reference/test_state_reference.py

Every expected figure below is worked out by hand in the comments next to it.
"""

import json
import os
import pickle
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "state_reference.py")
MiB = 1024 * 1024
A = 1 << 40          # a cudaMalloc segment
B = (1 << 40) + (1 << 34)  # an expandable segment


def block(address, size, requested, state):
    return {"address": address, "size": size, "requested_size": requested, "state": state,
            "frames": []}


def segment(address, total, blocks, expandable=False, seg_type="large"):
    return {"device": 0, "address": address, "total_size": total, "allocated_size": 0,
            "active_size": 0, "requested_size": 0, "stream": 0, "segment_type": seg_type,
            "segment_pool_id": (0, 0), "is_expandable": expandable, "frames": [],
            "blocks": blocks}


def entry(action, addr, size):
    return {"action": action, "addr": addr, "size": size, "stream": 0}


class StateReferenceTest(unittest.TestCase):
    def states(self, snapshot, events):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "snap.pickle")
            with open(path, "wb") as f:
                pickle.dump(snapshot, f, protocol=4)
            args = [sys.executable, SCRIPT, path, "--device", "0"]
            for e in events:
                args += ["--event", str(e)]
            out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
        return {s["event"]: s for s in json.loads(out)["states"]}

    def test_undoing_allocs_and_frees(self):
        # A 10 MiB segment: [2 MiB - 100 requested, live] [8 MiB free] at the end.
        snap = {
            "segments": [segment(A, 10 * MiB, [
                block(A, 2 * MiB, 2 * MiB - 100, "active_allocated"),
                block(A + 2 * MiB, 8 * MiB, 0, "inactive")])],
            "device_traces": [[
                entry("segment_alloc", A, 10 * MiB),          # 0
                entry("alloc", A, 2 * MiB - 100),             # 1
                entry("alloc", A + 2 * MiB, 3 * MiB),         # 2
                entry("free_requested", A + 2 * MiB, 3 * MiB),  # 3
                entry("free_completed", A + 2 * MiB, 3 * MiB),  # 4
            ]],
        }
        s = self.states(snap, [4, 3, 2, 1, 0, -1])
        # final: one live 2 MiB block, one 8 MiB hole
        self.assertEqual((s[4]["reserved"], s[4]["active"], s[4]["cached_free"], s[4]["largest_free"],
                          s[4]["free_blocks"]), (10 * MiB, 2 * MiB - 100, 8 * MiB, 8 * MiB, 1))
        # after the free_requested: the 3 MiB block is pending; rounded 3 MiB, the 5 MiB rest is split
        self.assertEqual([x["state"] for x in s[3]["live"]], ["allocated", "pending"])
        self.assertEqual((s[3]["active"], s[3]["block_bytes"], s[3]["cached_free"], s[3]["largest_free"]),
                         (5 * MiB - 100, 5 * MiB, 5 * MiB, 5 * MiB))
        self.assertEqual([x["state"] for x in s[2]["live"]], ["allocated", "allocated"])
        # after the first alloc: only A
        self.assertEqual((s[1]["active"], s[1]["cached_free"]), (2 * MiB - 100, 8 * MiB))
        # after the segment_alloc: an empty 10 MiB segment
        self.assertEqual((s[0]["reserved"], s[0]["active"], s[0]["largest_free"]), (10 * MiB, 0, 10 * MiB))
        # before it: nothing
        self.assertEqual((s[-1]["reserved"], s[-1]["free_blocks"], s[-1]["groups"]), (0, 0, []))

    def test_a_remainder_the_allocator_would_not_split_stays_in_the_block(self):
        # Request 7.5 MiB + 100 at A + 2 MiB: rounded 7.5 MiB + 512; 0.5 MiB - 512 remain to the
        # segment end, <= 1 MiB in a large segment, so the block takes them: no hole at all.
        req = 7 * MiB + MiB // 2 + 100
        snap = {
            "segments": [segment(A, 10 * MiB, [
                block(A, 2 * MiB, 2 * MiB, "active_allocated"),
                block(A + 2 * MiB, 8 * MiB, 0, "inactive")])],
            "device_traces": [[entry("alloc", A + 2 * MiB, req), entry("free_completed", A + 2 * MiB, req)]],
        }
        s = self.states(snap, [0])[0]
        self.assertEqual((s["block_bytes"], s["cached_free"], s["free_blocks"]), (10 * MiB, 0, 0))
        self.assertEqual(s["active"], 2 * MiB + req)

    def test_expandable_mappings(self):
        # Final: an expandable segment of 40 MiB at B, a 20 MiB live block then 20 MiB free.
        snap = {
            "segments": [segment(B, 40 * MiB, [
                block(B, 20 * MiB, 20 * MiB, "active_allocated"),
                block(B + 20 * MiB, 20 * MiB, 0, "inactive")], expandable=True)],
            "device_traces": [[
                entry("segment_map", B, 20 * MiB),               # 0
                entry("alloc", B, 20 * MiB),                     # 1
                entry("segment_map", B + 20 * MiB, 40 * MiB),    # 2: maps 40 MiB
                entry("segment_unmap", B + 40 * MiB, 20 * MiB),  # 3: and gives 20 back
            ]],
        }
        s = self.states(snap, [3, 2, 1, -1])
        self.assertEqual((s[3]["reserved"], s[3]["largest_free"]), (40 * MiB, 20 * MiB))
        # before the unmap: 60 MiB mapped, one segment, one 40 MiB hole
        self.assertEqual((s[2]["reserved"], s[2]["largest_free"], s[2]["free_blocks"]),
                         (60 * MiB, 40 * MiB, 1))
        self.assertEqual(len(s[2]["groups"]), 1)
        # before the second map: 20 MiB, all of it the live block
        self.assertEqual((s[1]["reserved"], s[1]["cached_free"], s[1]["active"]), (20 * MiB, 0, 20 * MiB))
        self.assertEqual(s[-1]["reserved"], 0)


if __name__ == "__main__":
    unittest.main()
