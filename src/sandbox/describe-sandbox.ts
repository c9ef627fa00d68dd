import { homedir } from 'node:os';
import { findSandbox } from './find-sandbox.ts';
import type { SandboxState } from './command-sandbox.ts';
import type { SandboxSettings } from './sandbox-settings.ts';

const OTHER_RULES =
  'They still get no credential in their environment, their output is scrubbed of every key Sylvan holds, and every process they start ends with them.';

/**
 * The banner's one line when commands will not run fenced (from what is known without starting
 * anything), or undefined when they will. A bwrap that is installed but cannot start is told by
 * the first turn and `/sandbox` instead.
 */
export function sandboxBannerLine(settings: SandboxSettings, environment: NodeJS.ProcessEnv = process.env): string | undefined {
  const modeSource = settings.source;
  if (settings.mode === 'off') return `(commands run without a sandbox: turned off by ${modeSource}; /sandbox tells more)`;
  const found = findSandbox(environment);
  if (found.available) return undefined;
  return settings.mode === 'on'
    ? `(commands will not run: the sandbox is required by ${modeSource}, but ${found.reason})`
    : `(commands run without a sandbox: ${found.reason}; /sandbox tells more)`;
}

/**
 * The first turn's one line when bwrap is installed but its start-up probe failed (the banner,
 * which starts nothing, could not know): under `auto` commands run unfenced, under `on` not at all.
 */
export function unavailableNotice(state: Extract<SandboxState, { state: 'unavailable' }>, modeSource: string): string {
  return state.required
    ? `(commands will not run: the sandbox is required by ${modeSource}, but ${state.reason}; /sandbox tells more)`
    : `(commands run without a sandbox: ${state.reason}; /sandbox tells more)`;
}

const shortened = (path: string, home: string): string => (home && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path);

/** What `/sandbox` prints: where commands stand, one fact per line. */
export function describeSandbox(state: SandboxState, workspaceRoot: string): string[] {
  switch (state.state) {
    case 'on': {
      const home = process.env.HOME || homedir();
      const program = state.kind === 'bwrap' ? 'a bubblewrap sandbox' : 'a sandbox-exec (Seatbelt) sandbox';
      return [
        `Commands run in ${program}: ${workspaceRoot} is writable, the rest of the file system read-only, /tmp private.`,
        `Hidden from them: ${state.hidden.map((path) => shortened(path, home)).join(', ') || '(nothing found to hide)'}.`,
        state.kind === 'bwrap'
          ? 'They see only their own processes, and everything they start ends with them (setsid or not).'
          : 'macOS has no process namespace: what they start ends with their process group and the session.',
        state.network
          ? 'Network: allowed (sandbox.network is true).'
          : 'Network: none. Answer "w" (run with network) at a command\'s approval, or set "sandbox": { "network": true } in $SYLVAN_HOME/settings.json.',
      ];
    }
    case 'off':
      return [`Commands run without a sandbox: turned off by ${state.because}.`, OTHER_RULES];
    case 'unavailable':
      return state.required
        ? [`Commands do not run: the sandbox is required (mode "on"), but ${state.reason}.`]
        : [`Commands run without a sandbox: ${state.reason}.`, OTHER_RULES];
  }
}
