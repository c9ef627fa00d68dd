import type { SandboxState } from '../../sandbox/command-sandbox.ts';

/** What a command prints when it found no network: curl, wget, git, npm, pip, ping. */
const NO_NETWORK = /could not resolve host|temporary failure in name resolution|name or service not known|network is unreachable|getaddrinfo e(?:ai_again|notfound)|unable to resolve host|eai_again|enetunreach/i;
/** What it prints when it wrote outside the workspace. */
const READ_ONLY = /read-only file system|erofs/i;

/**
 * The line for a `!command` that failed the way the sandbox makes commands fail (no network, a
 * read-only file system outside the workspace), saying how to run it otherwise; undefined when
 * the sandbox is not on or the output shows neither sign. A model's command is offered
 * "with network" at its approval; a typed one is asked nothing, so it gets this instead.
 */
export function sandboxHint(output: string, sandbox: SandboxState | undefined, userSettings: string): string | undefined {
  if (sandbox?.state !== 'on') return undefined;
  if (!sandbox.network && NO_NETWORK.test(output)) {
    return `Commands run in the sandbox, without network. To give them the network, set "sandbox": { "network": true } in ${userSettings}, or start Sylvan with --sandbox off (/sandbox tells more).`;
  }
  if (READ_ONLY.test(output)) {
    return 'Commands run in the sandbox: only the workspace is writable. To write elsewhere, start Sylvan with --sandbox off (/sandbox tells more).';
  }
  return undefined;
}
