import { realpathSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { probeSandbox, type SandboxAvailability } from './availability.ts';
import { bwrapArguments, type FenceProfile } from './bwrap-arguments.ts';
import { hiddenPaths } from './hidden-paths.ts';
import { macosProfile } from './macos-profile.ts';
import type { SandboxSettings } from './sandbox-settings.ts';

/** How one program is started: in the sandbox, or as it is. */
export interface Invocation {
  file: string;
  args: string[];
  /** Set for the child on top of its environment (a private TMPDIR inside the sandbox). */
  env: Record<string, string>;
  sandboxed: boolean;
}

/** Where commands stand this session, for `/sandbox`, the banner and the approval preview. */
export type SandboxState =
  | { state: 'on'; kind: 'bwrap' | 'sandbox-exec'; program: string; network: boolean; hidden: readonly string[] }
  | { state: 'off'; because: string }
  | { state: 'unavailable'; reason: string; required: boolean };

export interface CommandSandboxOptions {
  settings: SandboxSettings;
  /** Which setting chose the mode, named when it is off: "--sandbox off", "SYLVAN_SANDBOX=off"… */
  modeSource?: string;
  workspaceRoot: string;
  sylvanHome: string;
  environment?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** For tests: what `probeSandbox` would say. */
  availability?: () => SandboxAvailability;
}

/** Thrown (for the model) when `--sandbox on` is set and no sandbox can start. */
export class SandboxRequiredError extends Error {
  override name = 'SandboxRequiredError';
}

/**
 * The session's command sandbox: decides once (the probe runs at the first command or `/sandbox`,
 * never before the prompt) whether programs run fenced, and wraps each one.
 */
export class CommandSandbox {
  private decided: SandboxState | undefined;

  constructor(private readonly options: CommandSandboxOptions) {}

  get state(): SandboxState {
    this.decided ??= this.decide();
    return this.decided;
  }

  private decide(): SandboxState {
    const { settings } = this.options;
    if (settings.mode === 'off') return { state: 'off', because: this.options.modeSource ?? 'the settings' };
    const availability = (this.options.availability ?? (() => probeSandbox(this.options.environment, this.options.platform)))();
    if (!availability.available) return { state: 'unavailable', reason: availability.reason, required: settings.mode === 'on' };
    const environment = this.options.environment ?? process.env;
    const hidden = hiddenPaths({ home: environment.HOME || homedir(), sylvanHome: this.options.sylvanHome, environment });
    return { state: 'on', kind: availability.kind, program: availability.program, network: settings.network, hidden };
  }

  /**
   * `file args` as they are to be started. `network` is a one-call permission (the approval's
   * "run with network"). Throws `SandboxRequiredError` under `--sandbox on` when none can start.
   */
  wrap(file: string, args: readonly string[], callOptions: { network?: boolean } = {}): Invocation {
    const state = this.state;
    if (state.state === 'unavailable' && state.required) {
      throw new SandboxRequiredError(
        `Not run: the sandbox is required (sandbox mode "on") but cannot start: ${state.reason}. Tell the user; they can install bubblewrap or set the sandbox to auto.`,
      );
    }
    if (state.state !== 'on') return { file, args: [...args], env: {}, sandboxed: false };
    const profile: FenceProfile = {
      workspaceRoot: resolved(this.options.workspaceRoot),
      hidden: state.hidden,
      network: state.network || callOptions.network === true,
      readOnlyInTemporary: installationInTemporary(),
    };
    if (state.kind === 'bwrap') {
      return { file: state.program, args: [...bwrapArguments(profile), '--', file, ...args], env: { TMPDIR: '/tmp' }, sandboxed: true };
    }
    const temporary = resolved(tmpdir());
    return { file: state.program, args: ['-p', macosProfile(profile, [temporary]), '--', file, ...args], env: {}, sandboxed: true };
  }
}

/**
 * Sylvan's own folder when it lies under /tmp (a clone there, as CI makes): an MCP server it ships or
 * starts from there must still be readable once the sandbox gives /tmp a private, empty folder.
 * The first folder below /tmp on the way to the running script, read-only.
 */
function installationInTemporary(): string[] {
  const script = process.argv[1];
  if (!script) return [];
  const path = resolved(script);
  const match = /^\/tmp\/[^/]+/.exec(path);
  return match && match[0] !== path ? [match[0]] : [];
}

function resolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
