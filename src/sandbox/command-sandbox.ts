import { existsSync, realpathSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { probeSandbox, probeSandboxInBackground, type SandboxAvailability } from './availability.ts';
import { bwrapArguments, serverFenceArguments, type FenceProfile } from './bwrap-arguments.ts';
import { gitPathsToProtect } from './git-folders.ts';
import { hiddenPaths } from './hidden-paths.ts';
import { boundUnixSockets } from './host-sockets.ts';
import { macosProfile } from './macos-profile.ts';
import type { SandboxSettings } from './sandbox-settings.ts';

/** How one program is started: in the sandbox, or as it is. */
export interface Invocation {
  file: string;
  args: string[];
  /** Set for the child on top of its environment (a private TMPDIR inside the sandbox). */
  env: Record<string, string>;
  sandboxed: boolean;
  /** The paths bubblewrap mounts over to hide them, as they were looked up for this start. */
  masks?: readonly string[];
}

/**
 * Whether a sandboxed start failed before the command ran because a path the sandbox hides vanished
 * between the look-up and bubblewrap's mount (a service removed its socket, or its folder): with
 * the root read-only, bubblewrap cannot make the mount point, says so in one line, and exits 1.
 * The command never started, so it may start again with the paths looked up afresh. A command that
 * prints the same line is not believed unless the path it names is one of the masks and is gone.
 */
export function maskVanished(invocation: Invocation, exitCode: number | null, stdout: string, stderr: string): boolean {
  if (!invocation.sandboxed || exitCode !== 1 || stdout !== '') return false;
  const failed = /^bwrap: Can't (?:create file at|mkdir parents for) (.+?): [^\n]*\n?$/.exec(stderr);
  return failed !== null && (invocation.masks ?? []).includes(failed[1]!) && !existsSync(failed[1]!);
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
 * The session's command sandbox: decides once whether programs run fenced (the probe starts in the
 * background once the runtime loads, after the prompt is drawn), and wraps each one.
 */
export class CommandSandbox {
  private decided: SandboxState | undefined;

  constructor(private readonly options: CommandSandboxOptions) {}

  /** The decision; probes synchronously when `ready()` has not finished (it normally has). */
  get state(): SandboxState {
    this.decided ??= this.decide(this.availabilityNow());
    return this.decided;
  }

  /** Decides without blocking: the runtime starts this as it loads and awaits it before a turn. */
  async ready(): Promise<SandboxState> {
    if (this.decided) return this.decided;
    const availability = this.options.settings.mode === 'off' ? undefined : await this.availabilityLater();
    this.decided ??= this.decide(availability);
    return this.decided;
  }

  private availabilityNow(): SandboxAvailability | undefined {
    if (this.options.settings.mode === 'off') return undefined;
    return (this.options.availability ?? (() => probeSandbox(this.options.environment, this.options.platform)))();
  }

  private availabilityLater(): Promise<SandboxAvailability> {
    if (this.options.availability) return Promise.resolve(this.options.availability());
    return probeSandboxInBackground(this.options.environment, this.options.platform);
  }

  private decide(availability: SandboxAvailability | undefined): SandboxState {
    const { settings } = this.options;
    if (settings.mode === 'off' || availability === undefined) return { state: 'off', because: this.options.modeSource ?? 'the settings' };
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
    const workspaceRoot = resolved(this.options.workspaceRoot);
    // Looked up at each call: a command may have made a repository or a service started since.
    const profile: FenceProfile = {
      workspaceRoot,
      hidden: state.hidden,
      network: state.network || callOptions.network === true,
      readOnlyInTemporary: installationInTemporary(),
      readOnlyInWorkspace: gitPathsToProtect(workspaceRoot),
      sockets: boundUnixSockets(),
    };
    if (state.kind === 'bwrap') {
      const masks = [...profile.hidden, ...(profile.sockets ?? [])];
      return { file: state.program, args: [...bwrapArguments(profile), '--', file, ...args], env: { TMPDIR: '/tmp' }, sandboxed: true, masks };
    }
    const temporary = resolved(tmpdir());
    return { file: state.program, args: ['-p', macosProfile(profile, [temporary]), '--', file, ...args], env: {}, sandboxed: true };
  }

  /**
   * An MCP stdio server that did not ask for the sandbox, as it is to be started: where bubblewrap
   * runs, in a PID namespace of its own (it cannot read Sylvan's environment, or its ancestors',
   * from /proc) with Sylvan's folders hidden, the rest as it is; elsewhere (macOS, no working
   * bubblewrap, `--sandbox off`) as it is, `sandboxed` false.
   */
  wrapServer(file: string, args: readonly string[]): Invocation {
    const state = this.state;
    if (state.state !== 'on' || state.kind !== 'bwrap') return { file, args: [...args], env: {}, sandboxed: false };
    const environment = this.options.environment ?? process.env;
    const homes = hiddenPaths({ home: environment.HOME || homedir(), sylvanHome: this.options.sylvanHome, environment, only: 'sylvan' });
    return { file: state.program, args: [...serverFenceArguments(homes), '--', file, ...args], env: {}, sandboxed: true };
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
