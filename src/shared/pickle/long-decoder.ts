// LONG1 / LONG4 payloads: little-endian two's complement of any length. Snapshot addresses
// (~1.4e14) and time_us (~1.7e15) take 6-7 bytes and fit a double exactly, so they stay numbers;
// anything outside ±(2^53 - 1) becomes a bigint so it is never silently rounded.

const TWO_POW_53 = 2 ** 53;

export function decodeLong(bytes: Uint8Array, start: number, length: number): number | bigint {
  if (length === 0) return 0;
  const last = bytes[start + length - 1]!;
  const negative = last >= 0x80;
  if (!negative && length <= 7) {
    // Every partial sum is below 2^56; it is exact whenever the final value is below 2^53.
    let value = 0;
    let scale = 1;
    for (let i = 0; i < length; i++) {
      value += bytes[start + i]! * scale;
      scale *= 256;
    }
    if (value < TWO_POW_53) return value;
  } else if (negative && length <= 6) {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < length; i++) {
      value += bytes[start + i]! * scale;
      scale *= 256;
    }
    return value - scale;
  }
  return decodeLongBig(bytes, start, length);
}

function decodeLongBig(bytes: Uint8Array, start: number, length: number): number | bigint {
  let value = 0n;
  for (let i = length - 1; i >= 0; i--) {
    value = (value << 8n) | BigInt(bytes[start + i]!);
  }
  if (bytes[start + length - 1]! >= 0x80) value -= 1n << BigInt(8 * length);
  if (value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)) {
    return Number(value);
  }
  return value;
}
