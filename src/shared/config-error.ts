/** Bad usage: one line for the user, exit code 2. Here, below everything, so no module imports upward for it. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
