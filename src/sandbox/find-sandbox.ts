import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Whether a sandbox program is installed, known without starting anything: the banner asks this
 * before the prompt, so no child_process here (`availability.ts` probes, after the prompt).
 */

/** Which sandbox commands can run in here, or why none can. */
export type SandboxAvailability =
  | { available: true; kind: 'bwrap' | 'sandbox-exec'; program: string }
  | { available: false; reason: string };

const MACOS_SANDBOX = '/usr/bin/sandbox-exec';

/** The first executable `name` in the folders of `path` (a `PATH` value), or undefined. */
export function executableOnPath(name: string, path: string | undefined): string | undefined {
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

