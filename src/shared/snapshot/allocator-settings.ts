// allocator_settings as the model keeps it: the file's own values, but only plain ones (numbers,
// strings, booleans, None, and short lists or dicts of those — what PyTorch writes, e.g.
// roundup_power2_divisions). Anything else is dropped with a warning naming it: these values are
// shown, exported as JSON and passed between threads, and a nested or self-referencing value
// would make each of those walk it without end.

import { groupDigits } from '../errors/unreadable-input';

type SettingValue =
  string | number | boolean | null | SettingValue[] | { [key: string]: SettingValue };

const MAX_DEPTH = 2;
const MAX_ITEMS = 4096;
/** Values looked at in all: a list shared by every key must not multiply the work. */
const MAX_VALUES = 16_384;

/**
 * `asListed`: a value as the generic decode holds it (the fast path holds a frames list it has
 * read as its stand-in, which a setting may name by a memo reference: fuzz campaign seed
 * 20261136, case 8067, where the two paths kept different settings).
 */
export function sanitizeAllocatorSettings(
  settings: Record<string, unknown>,
  warnings: string[],
  asListed: (value: unknown) => unknown = (value) => value,
): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  const dropped: string[] = [];
  const budget = { values: MAX_VALUES, asListed };
  for (const key of Object.keys(settings)) {
    const value = plainSetting(settings[key], 0, budget);
    if (value === undefined) dropped.push(`allocator_settings.${key}`);
    else kept[key] = value;
  }
  if (dropped.length > 0) {
    const named = dropped.slice(0, 3).join(', ');
    const more = dropped.length > 3 ? ` and ${groupDigits(dropped.length - 3)} more` : '';
    warnings.push(`${named}${more} ignored: not a plain setting value`);
  }
  return kept;
}

/** The value as plain data, or undefined when it is not a plain setting. */
function plainSetting(
  read: unknown,
  depth: number,
  budget: { values: number; asListed: (value: unknown) => unknown },
): SettingValue | undefined {
  if (--budget.values < 0) return undefined;
  const value = budget.asListed(read);
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  // JSON has no bigint; the exact digits survive as text.
  if (typeof value === 'bigint') return value.toString();
  if (depth >= MAX_DEPTH || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    if (value.length > MAX_ITEMS) return undefined;
    const items: SettingValue[] = [];
    for (const item of value) {
      const plain = plainSetting(item, depth + 1, budget);
      if (plain === undefined) return undefined;
      items.push(plain);
    }
    return items;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype || !Object.isExtensible(value)) {
    return undefined;
  }
  const keys = Object.keys(value);
  if (keys.length > MAX_ITEMS) return undefined;
  const dict: { [key: string]: SettingValue } = {};
  for (const key of keys) {
    const plain = plainSetting((value as Record<string, unknown>)[key], depth + 1, budget);
    if (plain === undefined) return undefined;
    dict[key] = plain;
  }
  return dict;
}
