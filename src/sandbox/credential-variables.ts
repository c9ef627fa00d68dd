/**
 * Which environment variables hold credentials, by name or by value. Kept light (no imports): the
 * config loads it before the prompt to list the keys Sylvan holds.
 */

/** Sylvan's own keys, named in full; the patterns below catch most others. */
const SYLVAN_KEYS = new Set(['DASHSCOPE_API_KEY', 'OPENAI_API_KEY', 'TAVILY_API_KEY', 'BRAVE_API_KEY']);

/**
 * Names that say "credential": `*_KEY`, `*_TOKEN`, `*_SECRET` (and `OPENAI_API_KEY_2`-style
 * numbered copies), anything with PASSWORD, PASSWD, AUTH or CREDENTIAL in it, `*_PWD` (`MYSQL_PWD`,
 * but not the shell's own `PWD`/`OLDPWD`) and npm's `npm_config__authToken`; children also get no `AWS_*`.
 */
const CREDENTIAL_NAME = [
  /(?:_KEY|_TOKEN|_SECRET|_KEYS|_TOKENS|_SECRETS)(?:_?\d+)?$/i,
  /^(?:API_?KEY|TOKEN|SECRET)$/i,
  /PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|PRIVATE_KEY/i,
  // `_AUTH` (`npm_config__authToken`, `SSH_AUTH_SOCK`, `GH_AUTH…`), not GIT_AUTHOR_NAME.
  /(?:^|_)AUTH(?!OR)/i,
  /.+_PWD$/i,
];
/** AWS_REGION and the like are no secret to scrub from output, but a child gets no `AWS_*` at all. */
const CLOUD_ACCOUNT = /^AWS_/i;

/** Whether a variable's name says it holds a secret whose value must never be shown. */
export function isCredentialName(name: string): boolean {
  return SYLVAN_KEYS.has(name.toUpperCase()) || CREDENTIAL_NAME.some((pattern) => pattern.test(name));
}

/** The password of a URL like `postgres://user:pw@host/db`, or undefined when it holds none. */
export function urlPassword(value: string): string | undefined {
  const match = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\s:@]*:([^/?#\s@]+)@/i.exec(value.trim());
  if (!match?.[1]) return undefined;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return match[1];
  }
}

/**
 * Whether a variable is kept from a child process: a credential by name, Sylvan's own settings
 * (`SYLVAN_*`), a URL carrying a password (`DATABASE_URL=postgres://u:pw@…`), or a value equal to
 * a key Sylvan holds, whatever the variable is called.
 */
export function isWithheldVariable(name: string, value: string, heldKeys: ReadonlySet<string> = new Set()): boolean {
  return (
    isCredentialName(name) ||
    CLOUD_ACCOUNT.test(name) ||
    /^SYLVAN_/i.test(name) ||
    urlPassword(value) !== undefined ||
    (value.trim() !== '' && heldKeys.has(value.trim()))
  );
}
