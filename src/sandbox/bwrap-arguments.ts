import { statSync } from 'node:fs';
import { sep } from 'node:path';

export interface FenceProfile {
  /** The one folder a command may write (resolved, no trailing separator). */
  workspaceRoot: string;
  /** Resolved paths the command must not see (`hidden-paths.ts`). */
  hidden: readonly string[];
  network: boolean;
  /** Folders under /tmp that stay readable (Sylvan's own installation): the rest of /tmp is private. */
  readOnlyInTemporary?: readonly string[];
}

const isInside = (path: string, folder: string): boolean => path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);

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

/**
 * bubblewrap's arguments for one command (without the `--` and the command): the whole file
 * system read-only, a fresh /dev, /proc and private /tmp, the workspace writable, the credential
 * paths hidden (those inside the workspace after it is bound, so they stay hidden), new PID, IPC,
 * UTS and cgroup namespaces, a network namespace with only its own loopback unless `network`, no
 * capabilities, a new session (no terminal to push keys into), and death with its parent.
 * When the command exits, the PID namespace ends and every process in it is killed, `setsid` or not.
 */
export function bwrapArguments(profile: FenceProfile): string[] {
  const outside = profile.hidden.filter((path) => !isInside(path, profile.workspaceRoot));
  const inside = profile.hidden.filter((path) => isInside(path, profile.workspaceRoot) && path !== profile.workspaceRoot);
  return [
    '--ro-bind', '/', '/',
    '--dev', '/dev',
    '--proc', '/proc',
    '--tmpfs', '/tmp',
    ...(profile.readOnlyInTemporary ?? []).flatMap((path) => ['--ro-bind', path, path]),
    ...outside.flatMap(hide),
    '--bind', profile.workspaceRoot, profile.workspaceRoot,
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
