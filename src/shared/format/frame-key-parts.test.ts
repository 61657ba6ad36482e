import { describe, expect, it } from 'vitest';
import { frameKeyParts } from './frame-key-parts';

describe('frameKeyParts', () => {
  it('splits a frame into folders, file:line and function, losing nothing', () => {
    const keys = [
      [
        'cs336_systems/benchmark_nvtx.py:169 run_step',
        'cs336_systems/',
        'benchmark_nvtx.py:169',
        ' run_step',
      ],
      ['record-profiler-traces.py:87 leak_step', '', 'record-profiler-traces.py:87', ' leak_step'],
      ['C:\\work\\train.py:12 main', 'C:\\work\\', 'train.py:12', ' main'],
      [
        '/usr/lib/python3/torch/nn/modules/module.py:1750',
        '/usr/lib/python3/torch/nn/modules/',
        'module.py:1750',
        '',
      ],
      ['my dir/x.py:3 <lambda> of a/b', 'my dir/', 'x.py:3', ' <lambda> of a/b'],
    ] as const;
    for (const [key, head, fileLine, rest] of keys) {
      expect(frameKeyParts(key)).toEqual({ head, fileLine, rest });
      expect(head + fileLine + rest).toBe(key);
    }
  });

  it('has no parts for keys that are no single frame', () => {
    for (const key of [
      '(no stack recorded)',
      'autograd: AccumulateGrad',
      'aten::empty',
      '1.0 MiB',
      'a.py:1 f > b.py:2 g',
      'activation',
      ':12 nothing before',
    ])
      expect(frameKeyParts(key), key).toBeNull();
  });
});
