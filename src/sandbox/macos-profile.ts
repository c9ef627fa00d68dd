import type { FenceProfile } from './bwrap-arguments.ts';

/** A string as a Scheme string literal of the sandbox profile language. */
const quoted = (text: string): string => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/**
 * The `sandbox-exec -p` profile for one command on macOS: the same fence as on Linux as far as
 * Seatbelt can say it — writes only in the workspace, the temporary folders and the terminal
 * devices (the workspace's `.git` excepted), the credential paths unreadable, no network but local sockets unless `network`. macOS
 * has no PID namespace: descendants end with the process group. Untested by the suite, which runs
 * on Linux only.
 */
export function macosProfile(profile: FenceProfile, temporaryFolders: readonly string[]): string {
  const writable = [profile.workspaceRoot, '/private/tmp', '/private/var/folders', ...temporaryFolders];
  return [
    '(version 1)',
    '(allow default)',
    '(deny file-write*)',
    `(allow file-write* ${writable.map((path) => `(subpath ${quoted(path)})`).join(' ')} (literal "/dev/null") (literal "/dev/zero") (regex #"^/dev/tty") (regex #"^/dev/fd/"))`,
    ...((profile.readOnlyInWorkspace ?? []).length > 0
      ? [`(deny file-write* ${profile.readOnlyInWorkspace!.map((path) => `(subpath ${quoted(path)})`).join(' ')})`]
      : []),
    ...(profile.hidden.length > 0
      ? [`(deny file-read* file-write* ${profile.hidden.map((path) => `(subpath ${quoted(path)})`).join(' ')})`]
      : []),
    ...(profile.network ? [] : ['(deny network*)', '(allow network* (local unix))']),
  ].join('\n');
}
