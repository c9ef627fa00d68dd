import { spawnSync } from 'node:child_process';
import { findSandbox, type SandboxAvailability } from './find-sandbox.ts';

export { findSandbox, type SandboxAvailability };

const probed = new Map<string, SandboxAvailability>();

/**
 * Whether the sandbox really starts here: on Linux, bwrap is run once per session (about 20 ms)
 * with the namespaces commands get; user namespaces switched off, or a container that forbids
 * them, show here. Cached by program.
 */
export function probeSandbox(environment: NodeJS.ProcessEnv = process.env, platform = process.platform): SandboxAvailability {
  const found = findSandbox(environment, platform);
  if (!found.available || found.kind !== 'bwrap') return found;
  const cached = probed.get(found.program);
  if (cached) return cached;
  const probe = spawnSync(
    found.program,
    ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-pid', '--unshare-net', '--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--', 'true'],
    { encoding: 'utf8', timeout: 5_000, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const problem = probe.error?.message ?? (probe.status === 0 ? undefined : probe.stderr.trim().split('\n')[0] || `exit code ${probe.status}`);
  const result: SandboxAvailability = problem === undefined ? found : { available: false, reason: `bwrap cannot start here (${problem})` };
  probed.set(found.program, result);
  return result;
}
