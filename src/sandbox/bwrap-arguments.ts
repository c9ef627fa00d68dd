import { realpathSync, statSync } from 'node:fs';
import { sep } from 'node:path';

export interface FenceProfile {
  /** The one folder a command may write (resolved, no trailing separator). */
  workspaceRoot: string;
  /** Resolved paths the command must not see (`hidden-paths.ts`). */
  hidden: readonly string[];
  network: boolean;
  /** Folders under /tmp that stay readable (Sylvan's own installation): the rest of /tmp is private. */
  readOnlyInTemporary?: readonly string[];
  /** Resolved paths inside the workspace that stay read-only (its `.git`: `git-folders.ts`). */
  readOnlyInWorkspace?: readonly string[];
  /** Unix sockets of host services (`host-sockets.ts`), masked wherever they are. */
  sockets?: readonly string[];
}

const isInside = (path: string, folder: string): boolean => path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);

/** Host services listen under /run (and /var/run, its link); the sandbox gets an empty one. */
const RUN = '/run';

function hide(path: string): string[] {
  let directory: boolean;
  try {
    directory = statSync(path).isDirectory();
  } catch {
    return [];
  }
  // An empty folder in place of a folder, the empty /dev/null in place of a file or socket.
  return directory ? ['--tmpfs', path] : ['--ro-bind', '/dev/null', path];
}

/** What must stay readable under the empty /run: the resolver's file, where /etc/resolv.conf leads there (systemd-resolved). */
function keptUnderRun(): string[] {
  try {
    const resolver = realpathSync('/etc/resolv.conf');
    return isInside(resolver, RUN) ? ['--ro-bind', resolver, resolver] : [];
  } catch {
    return [];
  }
}

/**
 * bubblewrap's arguments for one command (without the `--` and the command): the whole file
 * system read-only, a fresh /dev, /proc, private /tmp and an empty /run, the workspace writable but
 * its `.git` read-only, the credential paths hidden and every host service's Unix socket masked
 * (those inside the workspace after it is bound, so they stay hidden), new PID, IPC, UTS and cgroup
 * namespaces, a network namespace with only its own loopback unless `network`, no capabilities
 * (root's too), a new session (no terminal to push keys into), and death with its parent.
 * When the command exits, the PID namespace ends and every process in it is killed, `setsid` or not.
 */
export function bwrapArguments(profile: FenceProfile): string[] {
  const inWorkspace = (path: string) => isInside(path, profile.workspaceRoot) && path !== profile.workspaceRoot;
  const installation = profile.readOnlyInTemporary ?? [];
  // Sockets under the fresh /run and /tmp are gone already, but for those in the workspace or Sylvan's installation there.
  const sockets = (profile.sockets ?? []).filter(
    (path) => inWorkspace(path) || (!isInside(path, RUN) && (!isInside(path, '/tmp') || installation.some((folder) => isInside(path, folder)))),
  );
  const hidden = [...profile.hidden, ...sockets];
  const outside = hidden.filter((path) => !isInside(path, profile.workspaceRoot) && !isInside(path, RUN));
  const inside = hidden.filter(inWorkspace);
  return [
    '--ro-bind', '/', '/',
    '--dev', '/dev',
    '--proc', '/proc',
    '--tmpfs', '/tmp',
    ...installation.flatMap((path) => ['--ro-bind', path, path]),
    '--tmpfs', RUN,
    ...keptUnderRun(),
    ...outside.flatMap(hide),
    '--bind', profile.workspaceRoot, profile.workspaceRoot,
    ...(profile.readOnlyInWorkspace ?? []).filter(inWorkspace).flatMap((path) => ['--ro-bind', path, path]),
    ...inside.flatMap(hide),
    '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try',
    ...(profile.network ? [] : ['--unshare-net']),
    '--die-with-parent', '--new-session', '--cap-drop', 'ALL',
    '--chdir', profile.workspaceRoot,
  ];
}

/**
 * bubblewrap's arguments for an MCP stdio server that did not ask for the sandbox: the file system
 * and network as they are, but a PID namespace of its own with a fresh /proc, so it cannot read the
 * environment Sylvan (or any process above it) was started with, where the user's keys are, and
 * Sylvan's own folders (`$SYLVAN_HOME`, `~/.sylvan`: the user's settings may hold a key) hidden.
 * It dies with Sylvan, and everything it starts dies with it.
 */
export function serverFenceArguments(hiddenHomes: readonly string[]): string[] {
  return [
    '--dev-bind', '/', '/',
    '--proc', '/proc',
    ...hiddenHomes.flatMap(hide),
    '--unshare-pid',
    '--die-with-parent', '--new-session',
  ];
}
