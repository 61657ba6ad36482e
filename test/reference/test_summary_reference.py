"""Tests of the Python reference summary (test/reference/summary_reference.py).

Run: python3 -m unittest test/reference/test_summary_reference.py

Every expected figure below is worked out by hand in the comments next to it.
"""

import base64
import gzip
import json
import os
import pickle
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "summary_reference.py")


def frame(name, line=1, filename="model.py"):
    return {"filename": filename, "name": name, "line": line}


def out_frame(name, line=1, filename="model.py"):
    return {"filename": filename, "line": line, "name": name}


def block(address, size, requested, state, frames=None):
    b = {"address": address, "size": size, "requested_size": requested, "state": state}
    b["frames"] = frames if frames is not None else []
    return b


def segment(address, total_size, blocks, device=0):
    return {"device": device, "address": address, "total_size": total_size,
            "allocated_size": 0, "active_size": 0, "requested_size": 0,
            "stream": 0, "segment_type": "large", "segment_pool_id": (0, 0),
            "is_expandable": False, "frames": [], "blocks": blocks}


def entry(action, addr, size, frames=None):
    e = {"action": action, "addr": addr, "size": size, "stream": 0}
    if frames is not None:
        e["frames"] = frames
    return e


class ReferenceTestCase(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def write(self, data, name="snap.pickle"):
        path = os.path.join(self.tmp.name, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def run_cli(self, path, *args):
        proc = subprocess.run([sys.executable, SCRIPT, path, *args],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise AssertionError(f"script failed: {proc.stderr}")
        return json.loads(proc.stdout)

    def summarize(self, snapshot, *args, protocol=4):
        return self.run_cli(self.write(pickle.dumps(snapshot, protocol=protocol)), *args)

    def only_device(self, doc):
        self.assertEqual(len(doc["devices"]), 1)
        return doc["devices"][0]

    @staticmethod
    def live(dev):
        return [(a["address"], a["bytes"], a["alloc_event_index"])
                for a in dev["largest_allocations_at_peak"]]


class CurveTests(ReferenceTestCase):
    def test_baseline_anchoring(self):
        f_a = [frame("alloc_a", 10)]
        snap = {
            "segments": [segment(0, 1000, [
                block(100, 512, 500, "active_allocated", [frame("blk")]),
                block(612, 256, 200, "active_allocated", [frame("old", 7)]),
                block(868, 132, 132, "inactive"),
            ])],
            "device_traces": [[
                entry("alloc", 200, 300),           # 0: +300
                entry("free_requested", 200, 300),  # 1: 0
                entry("free_completed", 200, 300),  # 2: -300
                entry("alloc", 100, 500, f_a),      # 3: +500
            ]],
        }
        doc = self.summarize(snap)
        self.assertEqual(doc["schema"], "allocscope.summary/1")
        self.assertEqual(doc["file"], "snap.pickle")
        self.assertEqual(doc["pickle_protocol"], 4)
        dev = self.only_device(doc)
        self.assertEqual(dev["device"], 0)
        self.assertEqual(dev["trace_entries"], 4)
        self.assertEqual(dev["actions"], {"alloc": 2, "free_completed": 1, "free_requested": 1})
        self.assertEqual(list(dev["actions"]), ["alloc", "free_completed", "free_requested"])
        self.assertEqual(dev["segments"], 1)
        self.assertEqual(dev["blocks"], 3)
        # reserved: no segment events -> flat at the final 1000
        self.assertEqual(dev["reserved_bytes"], {"final": 1000, "baseline": 1000, "peak": 1000})
        # active final = 500 + 200 = 700; deltas sum 500 -> baseline 200
        # values 500, 500, 200, 700 -> peak 700 first reached at 3
        self.assertEqual(dev["active_bytes"],
                         {"final": 700, "baseline": 200, "peak": 700, "peak_event_index": 3})
        self.assertEqual(dev["allocated_bytes"], {"final": 512 + 256})
        self.assertEqual(dev["unmatched_frees"], 0)
        self.assertEqual(dev["oom"], [])
        # live at 3: alloc@100 [3,4) (its block is open, so not pre-trace),
        # block@612 made before the trace [-1,4)
        self.assertEqual(dev["largest_allocations_at_peak"], [
            {"address": 100, "bytes": 500, "alloc_event_index": 3,
             "frames": [out_frame("alloc_a", 10)]},
            {"address": 612, "bytes": 200, "alloc_event_index": None,
             "frames": [out_frame("old", 7)]},
        ])
        self.assertEqual(list(dev), [
            "device", "trace_entries", "actions", "segments", "blocks", "reserved_bytes",
            "active_bytes", "allocated_bytes", "unmatched_frees", "oom",
            "largest_allocations_at_peak"])

    def test_reserved_curve(self):
        # final reserved = 3000; deltas +2000, -500, +1000 (map), -500 (unmap) = +2000
        # baseline 1000; values 3000, 2500, 3500, 3000 -> peak 3500
        snap = {
            "segments": [segment(0, 1000, [block(0, 1000, 0, "inactive")]),
                         segment(5000, 2000, [block(5000, 2000, 0, "inactive")])],
            "device_traces": [[
                entry("segment_alloc", 5000, 2000),
                entry("segment_free", 9000, 500),
                entry("segment_map", 20000, 1000),
                entry("segment_unmap", 20000, 500),
            ]],
        }
        dev = self.only_device(self.summarize(snap))
        self.assertEqual(dev["reserved_bytes"], {"final": 3000, "baseline": 1000, "peak": 3500})
        self.assertEqual(dev["active_bytes"],
                         {"final": 0, "baseline": 0, "peak": 0, "peak_event_index": -1})
        self.assertEqual(dev["largest_allocations_at_peak"], [])

    def test_clamping(self):
        # no segments: both finals are 0.
        # active deltas +400, 0, +100 -> sum 500 -> baseline -500, values -100, -100, 0
        #   raised by 500: baseline 0, values 400, 400, 500 -> peak 500 at 2
        # reserved deltas 0, +1000, 0 -> baseline -1000, values -1000, 0, 0
        #   raised by 1000: baseline 0, values 0, 1000, 1000 -> peak 1000
        snap = {"segments": [], "device_traces": [[
            entry("alloc", 100, 400),
            entry("segment_alloc", 0, 1000),
            entry("alloc", 200, 100),
        ]]}
        doc = self.summarize(snap)
        self.assertTrue(doc["warnings"])
        dev = self.only_device(doc)
        self.assertEqual(dev["segments"], 0)
        self.assertEqual(dev["reserved_bytes"], {"final": 0, "baseline": 0, "peak": 1000})
        self.assertEqual(dev["active_bytes"],
                         {"final": 0, "baseline": 0, "peak": 500, "peak_event_index": 2})
        self.assertEqual(self.live(dev), [(100, 400, 0), (200, 100, 2)])

    def test_peak_event_index_is_first_reach(self):
        # alloc 10, free 10, alloc 10 with final 10: baseline 0, values 10, 0, 10
        snap = {"segments": [segment(0, 10, [block(7, 10, 10, "active_allocated")])],
                "device_traces": [[entry("alloc", 7, 10), entry("free_completed", 7, 10),
                                   entry("alloc", 7, 10)]]}
        dev = self.only_device(self.summarize(snap))
        self.assertEqual(dev["active_bytes"],
                         {"final": 10, "baseline": 0, "peak": 10, "peak_event_index": 0})
        self.assertEqual(self.live(dev), [(7, 10, 0)])


class AllocationTests(ReferenceTestCase):
    def test_ring_buffer_wrapped_trace(self):
        f_free = [frame("freed_before", 3)]
        snap = {
            "segments": [segment(0, 1024, [
                block(400, 32, 20, "active_allocated"),
                block(500, 16, 10, "active_allocated", [frame("pre", 5)]),
                block(516, 976, 0, "inactive"),
            ])],
            "device_traces": [[
                entry("free_requested", 100, 50, f_free),  # 0: 0 (not a freeing entry)
                entry("free_completed", 100, 50, f_free),  # 1: -50, unmatched
                entry("alloc", 300, 70),                   # 2: +70
                entry("free_requested", 300, 70),          # 3: 0
                entry("free_completed", 300, 70),          # 4: -70
                entry("alloc", 400, 20),                   # 5: +20
            ]],
        }
        dev = self.only_device(self.summarize(snap))
        # final 30, deltas sum -30 -> baseline 60; values 60, 10, 80, 80, 10, 30
        self.assertEqual(dev["active_bytes"],
                         {"final": 30, "baseline": 60, "peak": 80, "peak_event_index": 2})
        self.assertEqual(dev["unmatched_frees"], 1)
        # live at 2: alloc@300 [2,4); block@500 [-1,6); free@100 was [-1,1); alloc@400 [5,6)
        self.assertEqual(self.live(dev), [(300, 70, 2), (500, 10, None)])

    def test_peak_at_baseline_uses_free_entries(self):
        big = 2**64 - 1
        snap = {
            "segments": [segment(0, 64, [block(200, 16, 10, "active_allocated"),
                                         block(216, 48, 0, "inactive")])],
            "device_traces": [[
                entry("free_completed", 100, 50,
                      [frame("inner", big), frame("outer", -(2**53)), frame("ok", -3)]),
                entry("free_completed", 150, 5),   # no frames key
                entry("alloc", 200, 10),
            ]],
        }
        dev = self.only_device(self.summarize(snap))
        # final 10; deltas -50 -5 +10 = -45 -> baseline 55; values 5, 0, 10
        self.assertEqual(dev["active_bytes"],
                         {"final": 10, "baseline": 55, "peak": 55, "peak_event_index": -1})
        self.assertEqual(dev["unmatched_frees"], 2)
        # at the baseline only allocations made before the trace are live:
        # free@100 [-1,0), free@150 [-1,1); alloc@200 [2,3) is not; block@200 is open
        self.assertEqual(dev["largest_allocations_at_peak"], [
            {"address": 100, "bytes": 50, "alloc_event_index": None,
             "frames": [out_frame("inner", -1), out_frame("outer", -1), out_frame("ok", -3)]},
            {"address": 150, "bytes": 5, "alloc_event_index": None, "frames": []},
        ])

    def test_free_requested_only_trace(self):
        snap = {
            "segments": [segment(0, 128, [block(100, 64, 60, "active_allocated"),
                                          block(200, 64, 5, "active_pending_free")])],
            "device_traces": [[
                entry("alloc", 100, 40),           # 0: +40
                entry("free_requested", 100, 40),  # 1: -40 (no free_completed anywhere)
                entry("alloc", 100, 60),           # 2: +60
                entry("alloc", 200, 5),            # 3: +5
            ]],
        }
        dev = self.only_device(self.summarize(snap))
        # final 60 + 5 (pending free counts as active); sum 65 -> baseline 0
        # values 40, 0, 60, 65
        self.assertEqual(dev["active_bytes"],
                         {"final": 65, "baseline": 0, "peak": 65, "peak_event_index": 3})
        self.assertEqual(dev["allocated_bytes"], {"final": 64})  # only active_allocated
        self.assertEqual(dev["unmatched_frees"], 0)
        self.assertEqual(self.live(dev), [(100, 60, 2), (200, 5, 3)])

    def test_old_free_action(self):
        # `free` frees whether or not the trace has free_completed
        snap = {"segments": [segment(0, 64, [block(0, 64, 0, "inactive")])],
                "device_traces": [[entry("alloc", 0, 10), entry("free", 0, 10),
                                   entry("free", 32, 4)]]}
        dev = self.only_device(self.summarize(snap))
        # final 0; deltas +10 -10 -4 = -4 -> baseline 4; values 14, 4, 0
        self.assertEqual(dev["active_bytes"],
                         {"final": 0, "baseline": 4, "peak": 14, "peak_event_index": 0})
        self.assertEqual(dev["unmatched_frees"], 1)
        # live at 0: alloc@0 [0,1) and free@32 [-1,2)
        self.assertEqual(self.live(dev), [(0, 10, 0), (32, 4, None)])

    def test_free_requested_ignored_when_free_completed_exists(self):
        # the free_requested at index 2 has no alloc but is not a freeing entry
        snap = {"segments": [], "device_traces": [[
            entry("alloc", 8, 10), entry("free_completed", 8, 10),
            entry("free_requested", 99, 10)]]}
        dev = self.only_device(self.summarize(snap))
        self.assertEqual(dev["unmatched_frees"], 0)
        self.assertEqual(dev["active_bytes"],
                         {"final": 0, "baseline": 0, "peak": 10, "peak_event_index": 0})

    def test_double_alloc(self):
        snap = {
            "segments": [segment(0, 1024, [block(100, 64, 0, "inactive"),
                                           block(900, 32, 30, "active_allocated")])],
            "device_traces": [[
                entry("alloc", 100, 30),           # 0: +30
                entry("alloc", 100, 50),           # 1: +50, ends the first at 1
                entry("free_completed", 100, 50),  # 2: -50, matches the second
            ]],
        }
        dev = self.only_device(self.summarize(snap))
        # final 30; sum 30 -> baseline 0; values 30, 80, 30
        self.assertEqual(dev["active_bytes"],
                         {"final": 30, "baseline": 0, "peak": 80, "peak_event_index": 1})
        self.assertEqual(dev["unmatched_frees"], 0)
        # live at 1: alloc #2 [1,2), block@900 [-1,3); alloc #1 was [0,1)
        self.assertEqual(self.live(dev), [(100, 50, 1), (900, 30, None)])

    def test_live_at_peak_sort_order_and_top(self):
        snap = {
            "segments": [segment(0, 4096, [
                block(50, 16, 0, "inactive"),
                block(100, 128, 100, "active_allocated"),
                block(300, 128, 100, "active_allocated"),
                block(500, 256, 200, "active_allocated"),
            ])],
            "device_traces": [[
                entry("alloc", 100, 100),          # 0: +100 (inconsistent: block@100 lives on)
                entry("alloc", 50, 5),             # 1: +5
                entry("free_completed", 100, 100),  # 2: -100
                entry("free_completed", 50, 5),    # 3: -5
            ]],
        }
        # final 400; sum 0 -> baseline 400; values 500, 505, 405, 400
        # live at 1: block@500 200, block@100 100 (not open at end), alloc@100 100 [0,2),
        #            block@300 100, alloc@50 5 [1,3)
        dev = self.only_device(self.summarize(snap))
        self.assertEqual(dev["active_bytes"],
                         {"final": 400, "baseline": 400, "peak": 505, "peak_event_index": 1})
        self.assertEqual(self.live(dev), [(500, 200, None), (100, 100, None), (100, 100, 0),
                                          (300, 100, None), (50, 5, 1)])
        dev3 = self.only_device(self.summarize(snap, "--top", "3"))
        self.assertEqual(self.live(dev3), [(500, 200, None), (100, 100, None), (100, 100, 0)])

    def test_oom_entries(self):
        snap = {"segments": [], "device_traces": [[
            {"action": "oom", "size": 4096, "device_free": 1024, "stream": 0},
            {"action": "oom", "size": 8, "stream": 0},
        ]]}
        dev = self.only_device(self.summarize(snap))
        self.assertEqual(dev["oom"], [
            {"event_index": 0, "requested_bytes": 4096, "device_free_bytes": 1024},
            {"event_index": 1, "requested_bytes": 8, "device_free_bytes": None},
        ])
        self.assertEqual(dev["active_bytes"]["peak_event_index"], -1)


class DocumentTests(ReferenceTestCase):
    def test_devices_from_segments_and_traces(self):
        snap = {
            "segments": [segment(0, 100, [block(0, 100, 0, "inactive")], device=2)],
            "device_traces": [[], [entry("alloc", 1, 8)], [], []],
        }
        doc = self.summarize(snap)
        self.assertEqual([d["device"] for d in doc["devices"]], [1, 2])
        d1, d2 = doc["devices"]
        self.assertEqual((d1["segments"], d1["trace_entries"]), (0, 1))
        self.assertEqual((d2["segments"], d2["trace_entries"], d2["blocks"]), (1, 0, 1))
        self.assertEqual(d2["actions"], {})
        self.assertEqual(d2["reserved_bytes"], {"final": 100, "baseline": 100, "peak": 100})

    def test_empty_snapshot(self):
        doc = self.summarize({"segments": [], "device_traces": [[]]})
        self.assertEqual(doc["devices"], [])

    def test_bare_list_legacy_blocks_and_protocol_2(self):
        f1, f2 = [frame("first")], [frame("last", 9)]
        legacy_seg = {
            "device": 1, "address": 1000, "total_size": 224, "allocated_size": 0,
            "active_size": 0, "requested_size": 0, "stream": 0, "segment_type": "small",
            "blocks": [
                {"size": 64, "requested_size": 60, "state": "active_allocated",
                 "history": [{"addr": 1000, "real_size": 60, "frames": f1},
                             {"addr": 1000, "real_size": 60, "frames": f2}]},
                {"size": 32, "requested_size": 0, "state": "inactive"},
                {"size": 128, "requested_size": 100, "state": "active_allocated"},
            ],
        }
        doc = self.summarize([legacy_seg], protocol=2)
        self.assertEqual(doc["pickle_protocol"], 2)
        dev = self.only_device(doc)
        self.assertEqual((dev["device"], dev["trace_entries"], dev["segments"], dev["blocks"]),
                         (1, 0, 1, 3))
        self.assertEqual(dev["reserved_bytes"], {"final": 224, "baseline": 224, "peak": 224})
        self.assertEqual(dev["active_bytes"],
                         {"final": 160, "baseline": 160, "peak": 160, "peak_event_index": -1})
        self.assertEqual(dev["allocated_bytes"], {"final": 192})
        # addresses: 1000, 1000+64, 1000+64+32
        self.assertEqual(dev["largest_allocations_at_peak"], [
            {"address": 1096, "bytes": 100, "alloc_event_index": None, "frames": []},
            {"address": 1000, "bytes": 60, "alloc_event_index": None,
             "frames": [out_frame("last", 9)]},
        ])

    def test_legacy_traces_key(self):
        # a legacy block without address (-> segment address 0) and without history
        seg = segment(0, 64, [{"size": 64, "requested_size": 64, "state": "active_allocated"}])
        snap = {"segments": [seg],
                "traces": [[{"action": "snapshot", "addr": 0, "size": 0, "stream": 0}]]}
        dev = self.only_device(self.summarize(snap))
        self.assertEqual(dev["trace_entries"], 1)
        self.assertEqual(dev["actions"], {"snapshot": 1})
        self.assertEqual(dev["active_bytes"],
                         {"final": 64, "baseline": 64, "peak": 64, "peak_event_index": -1})
        self.assertEqual(self.live(dev), [(0, 64, None)])


class LoadingTests(ReferenceTestCase):
    SNAP = {"segments": [segment(0, 64, [block(0, 64, 40, "active_allocated")])],
            "device_traces": [[entry("alloc", 0, 40)]]}

    def html_page(self, payload):
        padded = payload + b"\x00" * (3 - len(payload) % 3)
        blob = json.dumps([{"name": "snapshot.pickle",
                            "base64": base64.b64encode(padded).decode()}])
        return ("<!DOCTYPE html><html><head></head><body><script type=\"module\">\n"
                f"import {{add_local_files}} from 'x';\nconst local_files = {blob};\n"
                "add_local_files(local_files, 'Active Memory Timeline')\n"
                "</script></body></html>\n").encode()

    def expected_devices(self):
        return self.summarize(self.SNAP)["devices"]

    def test_wrappers(self):
        payload = pickle.dumps(self.SNAP, protocol=4)
        variants = {
            "a.pickle.gz": gzip.compress(payload),
            "b.html": self.html_page(payload),
            "c.html.gz": gzip.compress(self.html_page(payload)),
            "d.bin": self.html_page(payload),  # content, not extension, decides
            "e.pickle": payload + b"\x00\x00\x00",  # trailing bytes after STOP
        }
        expected = self.expected_devices()
        self.assertEqual(expected[0]["active_bytes"]["peak"], 40)
        for name, data in variants.items():
            with self.subTest(name=name):
                path = self.write(data, name)
                doc = self.run_cli(path)
                self.assertEqual(doc["file"], name)
                self.assertEqual(doc["bytes"], len(data))
                self.assertEqual(doc["pickle_protocol"], 4)
                self.assertEqual(doc["devices"], expected)

    def test_refuses_classes(self):
        class_pickle = pickle.dumps({"segments": [], "x": unittest.TestCase}, protocol=4)
        path = self.write(class_pickle)
        proc = subprocess.run([sys.executable, SCRIPT, path], capture_output=True, text=True)
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("not a snapshot", proc.stderr)
        self.assertEqual(proc.stdout, "")


if __name__ == "__main__":
    unittest.main()
