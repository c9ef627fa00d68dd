import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Which sandbox commands can run in here, or why none can. */
export type SandboxAvailability =
  | { available: true; kind: 'bwrap' | 'sandbox-exec'; program: string }
  | { available: false; reason: string };

const MACOS_SANDBOX = '/usr/bin/sandbox-exec';

function executableOnPath(name: string, path: string | undefined): string | undefined {
  for (const folder of (path ?? '').split(delimiter)) {
    if (folder === '') continue;
    const candidate = join(folder, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/**
 * What can be known without starting anything (for the banner): the platform and whether the
 * sandbox program is installed. Namespaces that are switched off show only in `probeSandbox`.
 */
export function findSandbox(environment: NodeJS.ProcessEnv = process.env, platform = process.platform): SandboxAvailability {
  if (platform === 'darwin') {
    const found = executableOnPath('sandbox-exec', `/usr/bin${delimiter}${environment.PATH ?? ''}`);
    return found ? { available: true, kind: 'sandbox-exec', program: found ?? MACOS_SANDBOX } : { available: false, reason: 'sandbox-exec is missing' };
  }
  if (platform !== 'linux') return { available: false, reason: `no sandbox is known for ${platform}` };
  const bwrap = executableOnPath('bwrap', environment.PATH);
  return bwrap
    ? { available: true, kind: 'bwrap', program: bwrap }
    : { available: false, reason: 'bubblewrap (bwrap) is not installed; on Debian or Ubuntu: apt-get install bubblewrap' };
}

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
