import { join } from 'node:path';
import { ConfigError } from '../../shared/config-error.ts';
import { readWholeSmallFile } from '../../shared/bounded-file.ts';
import { checkOption, SETTING_OPTIONS, STRUCTURED_KEYS } from './setting-options.ts';

/** One settings file as read: its own values, unvalidated beyond the options table. */
export interface SettingsLayer {
  file: string;
  /** The user's own file is trusted; a workspace's is not (it came with the folder). */
  trusted: boolean;
  values: Record<string, unknown>;
}

export interface LoadedSettings {
  /** The options as environment variables, project over user: a layer below the environment and `.env`. */
  environment: Record<string, string>;
  /** The files that were read, user first. */
  layers: SettingsLayer[];
  /** `permissions.secretPatterns` of both files: a project may only add to what is kept secret. */
  secretPatterns: string[];
  /** One line each: settings files that were not read (a FIFO, a link out of their folder, too big). */
  notes: string[];
  /** `skills.disabled` of both files: skills that are not offered (turning one off only narrows). */
  disabledSkills: string[];
  /** The project file's `mode`, kept out of `environment`: it counts only when it asks no less than the user's. */
  projectMode?: { value: string; file: string };
}

/** A settings file is a few kB; past this it is not read at all. */
const MAX_SETTINGS_BYTES = 1_000_000;

const userSettingsFile = (home: string): string => join(home, 'settings.json');
const projectSettingsFile = (cwd: string): string => join(cwd, '.sylvan', 'settings.json');

function readLayer(file: string, trusted: boolean, within: string, notes: string[]): SettingsLayer | undefined {
  const label = trusted ? '$SYLVAN_HOME' : 'the workspace';
  const read = readWholeSmallFile(file, { maxBytes: MAX_SETTINGS_BYTES, within, withinLabel: label });
  // No file, or no folder to hold one: nothing to read (an unusable SYLVAN_HOME is reported later, once).
  if (read.status === 'missing') return undefined;
  if (read.status === 'refused') {
    // The user's own file may hold secret patterns and approvals they count on: going on without it is not safe.
    if (trusted) throw new ConfigError(`${file}: could not be read (${read.reason}).`);
    notes.push(`(${file} was not read: ${read.reason}; its settings do not apply)`);
    return undefined;
  }
  const text = read.bytes.toString('utf8');
  let values: unknown;
  try {
    values = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file}: is not valid JSON (${(error as Error).message}).`);
  }
  if (typeof values !== 'object' || values === null || Array.isArray(values)) {
    throw new ConfigError(`${file}: must hold one JSON object, like { "model": "qwen-plus-latest" }.`);
  }
  return { file, trusted, values: values as Record<string, unknown> };
}

/**
 * Reads `$SYLVAN_HOME/settings.json` (user, trusted) and `.sylvan/settings.json` in the workspace
 * (project, untrusted) and checks, by hand so start-up stays light, what the banner and the config
 * need: the options and what a project file may not do. `permissions` and `mcpServers` are checked
 * with zod after the prompt (`check-settings.ts`). Throws `ConfigError` naming file and key.
 * `trustedEnvironment` is the real environment: a key there is one a project file cannot redirect.
 */
export function loadSettings(home: string, cwd: string, trustedEnvironment: Record<string, string | undefined>): LoadedSettings {
  const notes: string[] = [];
  const layers = [readLayer(userSettingsFile(home), true, home, notes), readLayer(projectSettingsFile(cwd), false, cwd, notes)].filter(
    (layer): layer is SettingsLayer => layer !== undefined,
  );
  const environment: Record<string, string> = {};
  const trustedKeys = new Set(Object.keys(trustedEnvironment).filter((name) => trustedEnvironment[name]));
  let projectMode: LoadedSettings['projectMode'];
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer.values)) {
      const option = SETTING_OPTIONS[key];
      if (!option) {
        if ((STRUCTURED_KEYS as readonly string[]).includes(key)) continue;
        throw new ConfigError(`${layer.file}: ${key}: unknown setting; known: ${[...Object.keys(SETTING_OPTIONS), ...STRUCTURED_KEYS.filter((known) => known !== '$schema')].join(', ')}.`);
      }
      if (value === null || value === undefined) continue;
      const checked = checkOption(option.type, value);
      if ('problem' in checked) throw new ConfigError(`${layer.file}: ${key}: ${checked.problem}, got ${JSON.stringify(value)}.`);
      if (!layer.trusted && option.guard === 'mode') {
        projectMode = { value: checked.text, file: layer.file };
        continue;
      }
      if (!layer.trusted) refuseInProject(layer.file, key, option.guard, trustedKeys);
      if (layer.trusted) trustedKeys.add(option.variable);
      environment[option.variable] = checked.text;
    }
  }
  const secretPatterns = layers.flatMap((layer) => {
    const patterns = (layer.values.permissions as { secretPatterns?: unknown } | undefined)?.secretPatterns;
    if (patterns === undefined) return [];
    if (!Array.isArray(patterns) || !patterns.every((pattern) => typeof pattern === 'string')) {
      throw new ConfigError(`${layer.file}: permissions.secretPatterns: must be a list of glob strings, like ["*.sqlite"].`);
    }
    return patterns as string[];
  });
  const disabledSkills = layers.flatMap((layer) => {
    const skills = layer.values.skills as { disabled?: unknown } | undefined;
    if (skills === undefined || skills === null) return [];
    const disabled = typeof skills === 'object' ? skills.disabled : undefined;
    const keys = typeof skills === 'object' && !Array.isArray(skills) ? Object.keys(skills).filter((key) => key !== 'disabled') : [];
    if (keys.length > 0 || (disabled !== undefined && (!Array.isArray(disabled) || !disabled.every((name) => typeof name === 'string')))) {
      throw new ConfigError(`${layer.file}: skills: must be { "disabled": ["skill-name", …] }.`);
    }
    return (disabled ?? []) as string[];
  });
  return { environment, layers, secretPatterns, disabledSkills, notes, projectMode };
}

function refuseInProject(file: string, key: string, guard: (typeof SETTING_OPTIONS)[string]['guard'], trustedKeys: Set<string>): void {
  if (guard === 'key') {
    throw new ConfigError(`${file}: ${key}: a project settings file cannot set API keys; put it in the environment or $SYLVAN_HOME/settings.json.`);
  }
  if (guard === 'approval') {
    throw new ConfigError(`${file}: ${key}: a project settings file cannot turn approval off; use --yes or $SYLVAN_HOME/settings.json.`);
  }
  if (typeof guard === 'object' && trustedKeys.has(guard.baseUrlOf)) {
    throw new ConfigError(
      `${file}: ${key}: a project settings file cannot send ${guard.baseUrlOf}, which it did not provide, to another server; set the URL in the environment or $SYLVAN_HOME/settings.json.`,
    );
  }
}
