import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';

/**
 * Credential folders and files under the home folder that a sandboxed command never sees: keys,
 * cloud and registry logins, keyrings, shell histories (they hold pasted tokens).
 */
const HOME_CREDENTIALS = [
  '.ssh', '.aws', '.config', '.gnupg', '.docker', '.kube', '.azure', '.gcloud', '.oci', '.terraform.d',
  '.password-store', '.local/share/keyrings', '.mozilla', '.netrc', '.npmrc', '.yarnrc', '.pypirc',
  '.git-credentials', '.pgpass', '.my.cnf', '.vault-token', '.boto', '.s3cfg', '.cargo/credentials',
  '.cargo/credentials.toml', '.m2/settings.xml', '.gradle/gradle.properties', '.bash_history',
  '.zsh_history', '.python_history', '.node_repl_history', '.psql_history', '.mysql_history',
];

/** Sylvan's default home, hidden even when SYLVAN_HOME points elsewhere: the user's key may be in its settings. */
const DEFAULT_SYLVAN_HOME = '.sylvan';

/** Sockets that hand out more power than a file can: the Docker daemon, the user's D-Bus and agents. */
const SYSTEM_SOCKETS = ['/var/run/docker.sock', '/run/docker.sock', '/run/user'];

export interface HiddenPathsInput {
  home: string | undefined;
  /** $SYLVAN_HOME: sessions, input history, the user's settings. */
  sylvanHome: string;
  environment: NodeJS.ProcessEnv;
  /** `sylvan`: only Sylvan's own folders (`$SYLVAN_HOME`, `~/.sylvan`), for an MCP server's lighter fence. */
  only?: 'sylvan';
}

/** Every path to hide, as named (absolute), existing or not. */
function candidatePaths(input: HiddenPathsInput): string[] {
  if (input.only === 'sylvan') return [input.sylvanHome, ...(input.home ? [join(input.home, DEFAULT_SYLVAN_HOME)] : [])];
  const candidates = [input.sylvanHome, ...SYSTEM_SOCKETS];
  if (input.home) candidates.push(...[DEFAULT_SYLVAN_HOME, ...HOME_CREDENTIALS].map((name) => join(input.home!, name)));
  for (const name of ['XDG_CONFIG_HOME', 'XDG_RUNTIME_DIR', 'SSH_AUTH_SOCK', 'GNUPGHOME', 'DOCKER_CONFIG', 'KUBECONFIG'] as const) {
    const value = input.environment[name];
    if (value && value.startsWith('/')) candidates.push(value);
  }
  return candidates;
}

/**
 * The existing paths to hide from commands, each resolved (a link is hidden where it leads), without
 * repeats: `$SYLVAN_HOME` and `~/.sylvan`, the credential paths under the home folder,
 * `$XDG_CONFIG_HOME`, `$XDG_RUNTIME_DIR`, the ssh-agent socket and the Docker socket.
 */
export function hiddenPaths(input: HiddenPathsInput): string[] {
  const resolved = new Set<string>();
  for (const candidate of candidatePaths(input)) {
    if (!existsSync(candidate)) continue;
    try {
      resolved.add(realpathSync(candidate));
    } catch {
      // Gone while we looked, or unreadable: nothing to hide.
    }
  }
  return [...resolved];
}

/**
 * The same paths, closed to the file tools: those inside the workspace, as glob patterns anchored
 * at it (`/.config/**`) (the path itself and everything under it), for the secret-file check every file
 * tool already makes. A path not there yet is included (the model must not create
 * `~/.sylvan/settings.json` either); one that holds the workspace is not (the user chose to work
 * there, and commands may too). Both the name as given and where a link leads count.
 */
export function hiddenPathPatterns(workspaceRoot: string, input: HiddenPathsInput): string[] {
  const roots = new Set([workspaceRoot, realOrNearest(workspaceRoot)]);
  const patterns = new Set<string>();
  for (const candidate of candidatePaths(input)) {
    for (const spelling of new Set([candidate, realOrNearest(candidate)])) {
      for (const root of roots) {
        const inside = relative(root, spelling);
        if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) continue;
        const escaped = inside.split(sep).map(escapeGlob).join('/');
        patterns.add(`/${escaped}`).add(`/${escaped}/**`);
      }
    }
  }
  return [...patterns];
}

/** The real path of `path`, or of its nearest existing folder with the rest appended. */
function realOrNearest(path: string): string {
  // Most candidates do not exist: asking first spares a thrown error each (~4 ms at every start).
  if (existsSync(path)) {
    try {
      return realpathSync(path);
    } catch {
      // Gone since, or unreadable: its folder stands in for it.
    }
  }
  const parent = dirname(path);
  return parent === path ? path : join(realOrNearest(parent), basename(path));
}

const escapeGlob = (segment: string): string => segment.replace(/[\\*?[\]{}!]/g, (character) => `\\${character}`);
