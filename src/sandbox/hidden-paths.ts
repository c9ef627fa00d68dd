import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';

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

/** Sockets that hand out more power than a file can: the Docker daemon, the user's D-Bus and agents. */
const SYSTEM_SOCKETS = ['/var/run/docker.sock', '/run/docker.sock', '/run/user'];

export interface HiddenPathsInput {
  home: string | undefined;
  /** $SYLVAN_HOME: sessions, input history, the user's settings. */
  sylvanHome: string;
  environment: NodeJS.ProcessEnv;
}

/**
 * The existing paths to hide, each resolved (a link is hidden where it leads), without repeats:
 * `$SYLVAN_HOME`, the credential paths under the home folder, `$XDG_CONFIG_HOME`,
 * `$XDG_RUNTIME_DIR`, the ssh-agent socket and the Docker socket.
 */
export function hiddenPaths(input: HiddenPathsInput): string[] {
  const candidates = [input.sylvanHome, ...SYSTEM_SOCKETS];
  if (input.home) candidates.push(...HOME_CREDENTIALS.map((name) => join(input.home!, name)));
  for (const name of ['XDG_CONFIG_HOME', 'XDG_RUNTIME_DIR', 'SSH_AUTH_SOCK', 'GNUPGHOME', 'DOCKER_CONFIG', 'KUBECONFIG'] as const) {
    const value = input.environment[name];
    if (value && value.startsWith('/')) candidates.push(value);
  }
  const resolved = new Set<string>();
  for (const candidate of candidates) {
    if (!existsSync(candidate)) continue;
    try {
      resolved.add(realpathSync(candidate));
    } catch {
      // Gone while we looked, or unreadable: nothing to hide.
    }
  }
  return [...resolved];
}
