import { execFile, spawnSync } from 'node:child_process';
import { findSandbox, type SandboxAvailability } from './find-sandbox.ts';

export { findSandbox, type SandboxAvailability };

/** bwrap started with the namespaces commands get, running `true`. */
const PROBE_ARGUMENTS = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-pid', '--unshare-net', '--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--', 'true'];
const PROBE_TIMEOUT_MS = 5_000;

const probed = new Map<string, SandboxAvailability>();
const probing = new Map<string, Promise<SandboxAvailability>>();

function verdict(found: SandboxAvailability, problem: string | undefined): SandboxAvailability {
  return problem === undefined ? found : { available: false, reason: `bwrap cannot start here (${problem})` };
}

/**
 * Whether the sandbox really starts here: on Linux, bwrap is run once per session (about 20 ms)
 * with the namespaces commands get; user namespaces switched off, or a container that forbids
 * them, show here. Cached by program. Blocks: `probeSandboxInBackground` is the one to start early.
 */
export function probeSandbox(environment: NodeJS.ProcessEnv = process.env, platform = process.platform): SandboxAvailability {
  const found = findSandbox(environment, platform);
  if (!found.available || found.kind !== 'bwrap') return found;
  const cached = probed.get(found.program);
  if (cached) return cached;
  const probe = spawnSync(found.program, PROBE_ARGUMENTS, { encoding: 'utf8', timeout: PROBE_TIMEOUT_MS, stdio: ['ignore', 'ignore', 'pipe'] });
  const problem = probe.error?.message ?? (probe.status === 0 ? undefined : probe.stderr.trim().split('\n')[0] || `exit code ${probe.status}`);
  const result = verdict(found, problem);
  probed.set(found.program, result);
  return result;
}

/**
 * `probeSandbox` without blocking: started while the user types, so the first turn neither waits
 * for bwrap nor stops the event loop (a synchronous probe held the first request by 20–100 ms).
 */
export function probeSandboxInBackground(environment: NodeJS.ProcessEnv = process.env, platform = process.platform): Promise<SandboxAvailability> {
  const found = findSandbox(environment, platform);
  if (!found.available || found.kind !== 'bwrap') return Promise.resolve(found);
  const cached = probed.get(found.program);
  if (cached) return Promise.resolve(cached);
  let pending = probing.get(found.program);
  if (!pending) {
    pending = new Promise<SandboxAvailability>((resolve) => {
      execFile(found.program, PROBE_ARGUMENTS, { encoding: 'utf8', timeout: PROBE_TIMEOUT_MS }, (error, _stdout, stderr) => {
        const code = (error as { code?: unknown } | null)?.code;
        const problem = error ? stderr.trim().split('\n')[0] || (typeof code === 'number' ? `exit code ${code}` : error.message) : undefined;
        const result = verdict(found, problem);
        probed.set(found.program, result);
        resolve(result);
      });
    });
    probing.set(found.program, pending);
  }
  return pending;
}
