"""Final allocator state of a snapshot, per device, read straight from the pickle with CPython.

Independent of the TypeScript decoder: the state tests compare the reconstructed state at the
last event with this. Prints JSON: {device: [{address, total_size, stream, pool, type,
expandable, blocks: [[address, size, requested_size, state], ...]}]}.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summary_reference import load_snapshot, blocks_with_addresses  # noqa: E402


def main(path):
    data, _protocol = load_snapshot(path)
    segments = data if isinstance(data, list) else data.get("segments", [])
    by_device = {}
    for segment in segments:
        blocks = [
            [address, block["size"], block.get("requested_size", block["size"]), block["state"]]
            for address, block in blocks_with_addresses(segment)
        ]
        pool = segment.get("segment_pool_id", (0, 0))
        by_device.setdefault(str(segment["device"]), []).append(
            {
                "address": segment["address"],
                "total_size": segment["total_size"],
                "stream": segment.get("stream", 0),
                "pool": ",".join(str(part) for part in pool),
                "type": segment.get("segment_type", "unknown"),
                "expandable": bool(segment.get("is_expandable", False)),
                "blocks": blocks,
            }
        )
    for device_segments in by_device.values():
        device_segments.sort(key=lambda s: s["address"])
    json.dump(by_device, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])
