import { describe, expect, it } from 'vitest';
import { allocationsAliveAt } from '@shared/analysis/allocation-table';
import type { FrameTable } from '@shared/snapshot/model';
import {
  TEST_FRAMES,
  TEST_STACKS,
  testDevice,
} from '../../../test/support/builders/analyzed-device';
import {
  csvField,
  LARGEST_CSV_COLUMNS,
  largestAllocationRecords,
  largestAllocationsCsv,
  toCsv,
} from './csv-of-largest-table';

const view = { streams: [0, 0x55d1c0de], frames: TEST_FRAMES, stacks: TEST_STACKS };

/** A strict RFC 4180 reader, to check what the writer produced. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
      } else if (c === '"') {
        quoted = false;
        i++;
      } else {
        field += c;
        i++;
      }
    } else if (c === '"' && field === '') {
      quoted = true;
      i++;
    } else if (c === ',') {
      row.push(field);
      field = '';
      i++;
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 2;
    } else if (c === '\r' || c === '\n' || c === '"') {
      throw new Error(`bare ${JSON.stringify(c)} at ${i}`);
    } else {
      field += c;
      i++;
    }
  }
  if (field !== '' || row.length > 0) throw new Error('the last line has no CRLF');
  return rows;
}

describe('csvField', () => {
  it('quotes fields with quotes, commas and line breaks, doubling quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\r')).toBe('"cr\r"');
    expect(csvField('')).toBe('');
    expect(csvField(null)).toBe('');
  });

  it('writes numbers in full, never in exponent form or as NaN', () => {
    expect(csvField(5308694528)).toBe('5308694528');
    expect(csvField(2 ** 53)).toBe('9007199254740992');
    expect(csvField(1.5)).toBe('1.5');
    expect(csvField(NaN)).toBe('');
    expect(csvField(0)).toBe('0');
  });

  it('ends every line with CRLF and round-trips through a strict reader', () => {
    const rows = [
      ['1', 'x,y', 'He said "no"', 'multi\r\nline', ''],
      ['2', '<module>', 'a <- b', ' spaced ', 'tail'],
    ];
    const text = toCsv(['a', 'b', 'c', 'd', 'e'], rows);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(parseCsv(text)).toEqual([['a', 'b', 'c', 'd', 'e'], ...rows]);
  });
});

describe('largestAllocationsCsv', () => {
  it('lists the rows of allocationsAliveAt in its order, with exact figures', () => {
    const device = testDevice();
    // No moment: the active peak (event 2), as the table shows it.
    const rows = parseCsv(largestAllocationsCsv(view, device, null));
    expect(rows[0]).toEqual([...LARGEST_CSV_COLUMNS]);
    const alive = [...allocationsAliveAt(device.allocations, 2)];
    expect(alive).toEqual([1, 0, 2]);
    expect(rows.slice(1)).toEqual([
      [
        '1',
        '0x7f0000200000',
        '2048',
        '',
        '0',
        '3',
        '5000000',
        '3',
        '/home/me/train.py:42 step',
        'torch::unwind::unwind() <- CUDACachingAllocator.cpp:0 c10::cuda::CUDACachingAllocator::malloc ' +
          '<- /site-packages/torch/nn/modules/linear.py:125 forward ' +
          '<- /home/me/train.py:42 step <- /home/me/train.py:? <module>',
      ],
      // Made before the trace, no stack: empty start, event and time.
      ['2', '0x7f0000000000', '1000', '1024', '', '', '', '4', '', ''],
      [
        '3',
        '0x7f0000400000',
        '512',
        '512',
        '2',
        '',
        '5001000',
        '2',
        '/site-packages/torch/nn/modules/linear.py:125 forward',
        'torch::unwind::unwind() <- /site-packages/torch/nn/modules/linear.py:125 forward',
      ],
    ]);
  });

  it('follows the selected moment', () => {
    const device = testDevice();
    const records = largestAllocationRecords(view, device, 3);
    expect(records.map((record) => record.row)).toEqual([
      ...allocationsAliveAt(device.allocations, 3),
    ]);
    expect(records.map((record) => record.sizeBytes)).toEqual([1000, 512]);
    expect(largestAllocationRecords(view, device, -1).map((record) => record.row)).toEqual([0]);
  });

  it('keeps at most the table’s 100 rows', () => {
    const device = testDevice();
    expect(largestAllocationRecords(view, device, 2, 2)).toHaveLength(2);
  });

  it('quotes frame names and files that hold commas and quotes', () => {
    const frames: FrameTable = {
      filename: [...TEST_FRAMES.filename.slice(0, 3), '/home/me/a,b "c".py', '/home/me/train.py'],
      name: [...TEST_FRAMES.name.slice(0, 3), 'step, "fast"', '<module>'],
      line: TEST_FRAMES.line,
    };
    const device = testDevice();
    const text = largestAllocationsCsv({ ...view, frames }, device, 2);
    const rows = parseCsv(text);
    expect(rows[1]![8]).toBe('/home/me/a,b "c".py:42 step, "fast"');
    expect(rows.every((row) => row.length === LARGEST_CSV_COLUMNS.length)).toBe(true);
  });
});
