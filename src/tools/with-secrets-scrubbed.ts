import type { ToolSet } from 'ai';
import { redactSecrets } from '../shared/redact-secrets.ts';
import { wrapExecutes, type Execute } from './wrap-executes.ts';

/** Every string inside a tool's output (text, or JSON-like objects and arrays) with the secrets replaced. */
function scrubbed(value: unknown, secrets: readonly string[], depth = 0): unknown {
  if (typeof value === 'string') return redactSecrets(value, secrets);
  if (depth > 50 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => scrubbed(item, secrets, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrubbed(item, secrets, depth + 1)]));
}

/**
 * The tools with the value of every key Sylvan holds (`secrets`: provider and search keys, MCP
 * headers…) replaced by "[redacted]" in what they return and in the errors they throw, before
 * either reaches the model or a session file: a command that prints `/proc/$PPID/environ`, a web
 * page or an MCP server that echoes a header, hands over nothing. Secrets are read at each call
 * (`() => list`), so keys learned later count.
 */
export function withSecretsScrubbed<TOOLS extends ToolSet>(tools: TOOLS, secrets: () => readonly string[]): TOOLS {
  return wrapExecutes(tools, (_name, execute): Execute => async (input, options) => {
    const list = secrets();
    try {
      return scrubbed(await (execute(input, options) as unknown), list);
    } catch (error) {
      if (!(error instanceof Error) || list.length === 0) throw error;
      const clean = redactSecrets(error.message, list);
      if (clean === error.message) throw error;
      const replacement = new Error(clean);
      replacement.name = error.name;
      throw replacement;
    }
  });
}
