// CPython as a test oracle, started once per test file instead of once per check: a python3
// process runs each script sent to it (its `INPUT` the bytes sent with it, what it prints the
// answer), one at a time, in order. Starting python3 costs 30 ms on an idle machine and seconds
// on a loaded one; a file that asks it a hundred questions paid that a hundred times.

import { spawn } from 'node:child_process';

const SERVER = `
import contextlib, io, json, sys, traceback
requests = sys.stdin.buffer
while True:
    header = requests.readline()
    if not header:
        break
    request = json.loads(header)
    size = request['inputBytes']
    data = requests.read(size) if size else b''
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            exec(request['script'], {'__name__': '__main__', 'INPUT': data})
        reply = {'ok': True, 'out': printed.getvalue()}
    except BaseException:
        reply = {'ok': False, 'out': printed.getvalue(), 'error': traceback.format_exc()}
    sys.stdout.write(json.dumps(reply) + '\\n')
    sys.stdout.flush()
`;

interface Reply {
  ok: boolean;
  out: string;
  error?: string;
}

export interface PythonOracle {
  /** Runs `script` with `INPUT` bound to `input` (b'' when none); what it printed. */
  run(script: string, input?: Uint8Array): Promise<string>;
  close(): Promise<void>;
}

export function startPythonOracle(): PythonOracle {
  const child = spawn('python3', ['-u', '-c', SERVER], { stdio: ['pipe', 'pipe', 'pipe'] });
  const waiting: { resolve: (reply: Reply) => void; reject: (error: Error) => void }[] = [];
  let stderr = '';
  let buffered = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      waiting.shift()?.resolve(JSON.parse(line) as Reply);
    }
  });
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      for (const pending of waiting.splice(0))
        pending.reject(new Error(`python3 exited (${code}): ${stderr}`));
      resolve();
    }),
  );
  return {
    run(script, input = new Uint8Array(0)) {
      return new Promise<string>((resolve, reject) => {
        waiting.push({
          resolve: (reply) =>
            reply.ok ? resolve(reply.out) : reject(new Error(`python3 failed: ${reply.error}`)),
          reject,
        });
        child.stdin.write(`${JSON.stringify({ script, inputBytes: input.length })}\n`);
        child.stdin.write(input);
      });
    },
    async close() {
      child.stdin.end();
      await exited;
    },
  };
}
