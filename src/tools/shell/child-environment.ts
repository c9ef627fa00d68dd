/** Sylvan's own keys, named in full; the suffix rule below catches most others. */
const SYLVAN_KEYS = new Set(['DASHSCOPE_API_KEY', 'OPENAI_API_KEY', 'TAVILY_API_KEY', 'BRAVE_API_KEY']);
const SECRET_SUFFIX = /(?:_KEY|_TOKEN|_SECRET)$/i;

/** Whether a variable is kept from commands: Sylvan's keys and settings, and anything named like a credential. */
export function isWithheldVariable(name: string): boolean {
  return SYLVAN_KEYS.has(name.toUpperCase()) || /^SYLVAN_/i.test(name) || SECRET_SUFFIX.test(name);
}

/**
 * The environment a command runs with: the user's, minus Sylvan's keys and settings
 * (`DASHSCOPE_API_KEY`, `OPENAI_API_KEY`, `TAVILY_API_KEY`, `BRAVE_API_KEY`, `SYLVAN_*`) and every
 * variable whose name ends in `_KEY`, `_TOKEN` or `_SECRET`, so `env` cannot hand a key to the model.
 */
export function childEnvironment(environment: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(environment)) {
    if (value !== undefined && !isWithheldVariable(name)) kept[name] = value;
  }
  return kept;
}
