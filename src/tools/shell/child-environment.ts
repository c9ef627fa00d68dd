import { isWithheldVariable } from '../../sandbox/credential-variables.ts';

/**
 * The environment a command runs with: the user's, minus Sylvan's keys and settings (`SYLVAN_*`)
 * and every credential (`sandbox/credential-variables.ts`: `*_KEY`, `*_TOKEN`, `*_SECRET`,
 * `*PASSWORD*`, `*_PWD`, `*_AUTH*`, `*CREDENTIAL*`, `AWS_*`, URLs with a password, and any variable
 * whose value is one of `heldKeys`), so `env` cannot hand a key to the model.
 */
export function childEnvironment(environment: NodeJS.ProcessEnv = process.env, heldKeys: readonly string[] = []): NodeJS.ProcessEnv {
  const held = new Set(heldKeys.map((key) => key.trim()).filter((key) => key !== ''));
  const kept: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(environment)) {
    if (value !== undefined && !isWithheldVariable(name, value, held)) kept[name] = value;
  }
  return kept;
}
