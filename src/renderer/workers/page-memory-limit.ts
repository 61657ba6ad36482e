// What one decode in the page may hold (src/shared/snapshot/unpacked-budget.ts): the device's
// memory as the browser reports it. navigator.deviceMemory is in GiB, rounded down to a power of
// two and capped at 8 by Chromium, so 8 means "8 or more": then (and where the browser does not
// say) no limit but the unpack ratio's. The page has no way to raise it; the CLI's --max-memory
// does.

import { NO_MEMORY_LIMIT, type MemoryLimit } from '@shared/snapshot/unpacked-budget';

/** The most navigator.deviceMemory reports (Chromium): a device with more says this. */
const REPORTED_GIB_CAP = 8;

export function pageMemoryLimit(
  deviceMemoryGiB: number | undefined = (
    globalThis.navigator as { deviceMemory?: number } | undefined
  )?.deviceMemory,
): MemoryLimit {
  if (
    deviceMemoryGiB === undefined ||
    !(deviceMemoryGiB > 0) ||
    deviceMemoryGiB >= REPORTED_GIB_CAP
  )
    return NO_MEMORY_LIMIT;
  return {
    bytes: deviceMemoryGiB * 2 ** 30,
    source: "this device's memory, as the browser reports it",
    chosen: false,
  };
}
