import { spawn } from 'node:child_process';
import { isWithheldVariable } from '../../sandbox/credential-variables.ts';

/** More output than a status row can use is not read. */
const MAX_OUTPUT_BYTES = 16_384;

/**
 * Runs the status line command in `cwd` with `input` on stdin (through `sh -c`, in a process group
 * of its own, with no credential in its environment) and resolves with the first line it printed,
 * or undefined when it printed nothing, failed or was killed. It is killed — with everything it
 * started — after `timeoutMs`, or as soon as `signal` aborts. Never rejects.
 */
export function runStatusCommand(command: string, input: string, options: { cwd: string; timeoutMs: number; signal?: AbortSignal }): Promise<string | undefined> {
  return new Promise((resolve) => {
    const environment = Object.fromEntries(Object.entries(process.env).filter(([name, value]) => value !== undefined && !isWithheldVariable(name, value)));
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn('/bin/sh', ['-c', command], { cwd: options.cwd, env: environment, stdio: ['pipe', 'pipe', 'ignore'], detached: true });
    } catch {
      resolve(undefined);
      return;
    }
    let output = '';
    let settled = false;
    const kill = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    };
    const finish = (line: string | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(line);
    };
    const onAbort = () => {
      kill();
      finish(undefined);
    };
    const timer = setTimeout(onAbort, options.timeoutMs);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', () => finish(undefined));
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      if (output.length < MAX_OUTPUT_BYTES) output += chunk;
    });
    child.on('close', (code) => {
      // What it started in the background is no part of a status line.
      kill();
      const first = output.split(/\r?\n/)[0] ?? '';
      finish(code === 0 && first.trim() !== '' ? first : undefined);
    });
    child.stdin?.on('error', () => {});
    child.stdin?.end(input);
  });
}
