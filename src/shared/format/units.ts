// Human units for bytes and durations. Binary units (KiB, MiB, GiB) because that is what
// PyTorch's allocator and nvidia-smi report; exact bytes stay available to callers.

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;

export function formatBytes(bytes: number, fractionDigits = 1): string {
  if (!Number.isFinite(bytes)) return String(bytes);
  const sign = bytes < 0 ? '-' : '';
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 ? 0 : fractionDigits;
  return `${sign}${value.toFixed(digits)} ${BYTE_UNITS[unit]}`;
}

/**
 * A change in bytes with its sign always written ("+96.0 MiB", "−1.0 GiB", "+0 B"), the minus a
 * true minus sign; `format` writes the magnitude (exact bytes beside the unit in the CLI).
 */
export function formatSignedBytes(
  bytes: number,
  format: (magnitude: number) => string = formatBytes,
): string {
  return `${bytes < 0 ? '−' : '+'}${format(Math.abs(bytes))}`;
}

/** Groups digits in threes so exact byte counts stay readable: 1 234 567 890. */
export function formatExactBytes(bytes: number): string {
  const sign = bytes < 0 ? '-' : '';
  const digits = Math.abs(Math.trunc(bytes)).toString();
  return sign + digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export function formatDurationUs(durationUs: number): string {
  const abs = Math.abs(durationUs);
  if (abs < 1_000) return `${durationUs.toFixed(0)} µs`;
  if (abs < 1_000_000) return `${(durationUs / 1_000).toFixed(abs < 10_000 ? 2 : 1)} ms`;
  if (abs < 60_000_000) return `${(durationUs / 1_000_000).toFixed(abs < 10_000_000 ? 3 : 2)} s`;
  const minutes = Math.floor(abs / 60_000_000);
  const seconds = (abs - minutes * 60_000_000) / 1_000_000;
  return `${durationUs < 0 ? '-' : ''}${minutes} min ${seconds.toFixed(1)} s`;
}
