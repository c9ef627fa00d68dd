import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ConfigError } from '../shared/config-error.ts';
import type { SettingsLayer } from '../config/settings/load-settings.ts';
import { HOOK_EVENTS, type ConfiguredHook, type HookEvent } from './hook-types.ts';

const commandHandler = z.object({
  type: z.literal('command'),
  command: z.string().min(1),
  timeout: z.number().positive().optional(),
});
const httpHandler = z.object({
  type: z.literal('http'),
  url: z.url({ protocol: /^https?$/ }),
  headers: z.record(z.string(), z.string()).optional(),
  timeout: z.number().positive().optional(),
});
// Claude Code's files carry fields Sylvan does not use (`statusMessage`, `async`…): kept loose, like theirs.
const group = z.object({
  matcher: z.string().optional(),
  hooks: z.array(z.discriminatedUnion('type', [commandHandler, httpHandler])),
});
const hooksSetting = z.record(z.string(), z.array(group));
const KNOWN_EVENTS: ReadonlySet<string> = new Set(HOOK_EVENTS);

/** The hooks of one settings file, and a fingerprint of exactly what they are (what trusting them covers). */
export interface FileHooks {
  file: string;
  /** The user's own file. */
  own: boolean;
  hooks: Omit<ConfiguredHook, 'trusted'>[];
  fingerprint: string;
  /** Events Sylvan does not have (`SubagentStop` before subagents exist): their hooks are listed by /hooks but never run. */
  unknownEvents: string[];
}

/**
 * The `hooks` key of each settings file, in Claude Code's shape:
 * `{"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "…", "timeout": 30}]}]}`.
 * A matcher that is not a valid regular expression is refused here, naming file and key, instead of
 * never matching. Throws `ConfigError`.
 */
export function hooksOfLayers(layers: readonly SettingsLayer[]): FileHooks[] {
  const files: FileHooks[] = [];
  for (const layer of layers) {
    const raw = layer.values.hooks;
    if (raw === undefined || raw === null) continue;
    const parsed = hooksSetting.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const at = ['hooks', ...(issue?.path ?? []).map(String)].join('.');
      throw new ConfigError(`${layer.file}: ${at}: ${issue?.message ?? 'invalid'} (the format is Claude Code's: {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "…"}]}]}).`);
    }
    const hooks: FileHooks['hooks'] = [];
    const unknownEvents: string[] = [];
    for (const [name, groups] of Object.entries(parsed.data)) {
      if (!KNOWN_EVENTS.has(name)) {
        unknownEvents.push(name);
        continue;
      }
      const event = name as HookEvent;
      groups.forEach((entry, index) => {
        const matcher = entry.matcher ?? '';
        try {
          new RegExp(matcher);
        } catch {
          throw new ConfigError(`${layer.file}: hooks.${event}.${index}.matcher: ${JSON.stringify(matcher)} is not a regular expression.`);
        }
        for (const handler of entry.hooks) hooks.push({ event, matcher, handler, source: layer.file });
      });
    }
    files.push({ file: layer.file, own: layer.trusted, hooks, fingerprint: fingerprintOf(raw), unknownEvents });
  }
  return files;
}

/** The exact content of a file's hooks, as a hash: any change to a command, a matcher or an event changes it. */
const fingerprintOf = (hooks: unknown): string => createHash('sha256').update(JSON.stringify(hooks)).digest('hex');
