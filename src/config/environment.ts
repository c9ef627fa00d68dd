import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../shared/config-error.ts';
import { readWholeSmallFile } from '../shared/bounded-file.ts';
import { isCredentialName, urlPassword } from '../sandbox/credential-variables.ts';
import { loadSettings, type LoadedSettings } from './settings/load-settings.ts';
import { parseNumberSetting, type NumberSettingName } from './settings/number-settings.ts';
import { SettingsSources } from './settings/sources.ts';
import { digits } from '../shared/text/count-text.ts';

export type Environment = Record<string, string | undefined>;

/** dotenv costs more to load than the rest of start-up's modules together: loaded only when a .env exists. */
const parseDotenv = (source: Buffer): Environment =>
  (createRequire(import.meta.url)('dotenv') as typeof import('dotenv')).parse(source);

/** A `.env` of more than this is not read: it is a list of variables, not data. */
const MAX_DOTENV_BYTES = 1_000_000;

/** `.env` in the workspace, read only if it is a regular file there (not a FIFO, a device or a link out). */
function readDotenv(cwd: string, notes: string[]): Environment {
  const read = readWholeSmallFile(join(cwd, '.env'), { maxBytes: MAX_DOTENV_BYTES, within: cwd, withinLabel: 'the workspace' });
  if (read.status === 'refused') notes.push(`(.env in ${cwd} was not read: ${read.reason})`);
  return read.status === 'read' ? parseDotenv(read.bytes) : {};
}

/** The variables Sylvan reads, by layer: the real environment, `.env` in the workspace, the settings files. */
export interface LayeredEnvironment {
  /** The real environment, as the process got it. */
  process: Environment;
  /** `.env` in the workspace: untrusted until the user trusts the folder. */
  dotenv: Environment;
  settings: LoadedSettings;
  /** The environment, then `.env` (settings files left out): where a model or a key the user typed comes from. */
  variables: SettingsSources;
  /** All three layers, with what each may set. */
  sources: SettingsSources;
  /** The layers merged, the first that sets a variable winning. */
  merged: Environment;
  /** $SYLVAN_HOME: where Sylvan keeps its settings, sessions and checkpoints, from the real environment only. */
  home: string;
  /** Files that were not read, and why. */
  fileNotes: string[];
}

/**
 * Flags > environment > `.env` in the working directory > the settings files. Throws `ConfigError`
 * for a settings file that may not set what it sets.
 */
export function readEnvironment(environment: Environment, cwd: string): LayeredEnvironment {
  // Only the real environment says where Sylvan keeps its own state: a folder's .env pointing
  // SYLVAN_HOME at the folder would make its settings "trusted", put sessions and the checkpoint
  // tidy-up there, and move what the sandbox hides away from the user's real settings (and key).
  const home = nonEmpty(environment.SYLVAN_HOME) ?? join(homedir(), '.sylvan');
  // Settings files are the layer below .env.
  const settings = loadSettings(home, cwd, environment);
  // An empty variable in the shell counts as unset, so it does not hide the value in .env.
  const fileNotes = [...settings.notes];
  const dotenv = readDotenv(cwd, fileNotes);
  if (nonEmpty(dotenv.SYLVAN_HOME) !== undefined) {
    fileNotes.push(`(SYLVAN_HOME in .env in ${cwd} was ignored: where Sylvan keeps its settings and sessions is set only in the environment)`);
  }
  const variables = [
    { label: 'the environment', trusted: true, values: environment },
    { label: `.env in ${cwd}`, trusted: false, values: dotenv },
  ];
  const sources = new SettingsSources([
    ...variables,
    // What a project file may not set (keys, a base URL for a key it did not bring, approval) was
    // refused by loadSettings with exit 2; what is left may stand as the user's own choices.
    { label: 'the settings files', trusted: true, values: settings.environment },
  ]);
  return { process: environment, dotenv, settings, variables: new SettingsSources(variables), sources, merged: sources.merged(), home, fileNotes };
}

const configError = (message: string) => new ConfigError(message);

/** A number from its flag or, failing that, its variable; the error names the one the user set. */
export function numberSetting(name: NumberSettingName, sources: SettingsSources, fallback: number, flag?: { value: string | undefined; name: string }): number {
  return flag?.value !== undefined
    ? parseNumberSetting(name, flag.value, fallback, flag.name, configError)
    : parseNumberSetting(name, sources.lookup(name)?.value, fallback, whereSet(name, sources), configError);
}

/**
 * A limit on what a turn may spend (steps, tokens): the user's own value (flag, environment,
 * `$SYLVAN_HOME/settings.json`, else the default), which the folder (`.env`, `.sylvan/settings.json`)
 * may lower, never raise: a cloned repository must not buy itself a longer run. A raise is ignored
 * with a note.
 */
export function limitSetting(
  name: NumberSettingName,
  settingKey: string,
  layers: LayeredEnvironment,
  fallback: number,
  flag: { value: string | undefined; name: string },
): number {
  if (flag.value !== undefined) return parseNumberSetting(name, flag.value, fallback, flag.name, configError);
  // The winning value is checked first, so a bad one is named where it was set, as every setting's is.
  numberSetting(name, layers.sources, fallback);
  const userFile = layers.settings.layers.find((layer) => layer.trusted);
  const userValue = userFile?.values[settingKey];
  const own = nonEmpty(layers.process[name]) !== undefined
    ? parseNumberSetting(name, layers.process[name], fallback, name, configError)
    : userValue !== undefined && userValue !== null
      ? parseNumberSetting(name, String(userValue), fallback, `${settingKey} in ${userFile!.file}`, configError)
      : fallback;
  const folder = [
    ...(nonEmpty(layers.dotenv[name]) !== undefined ? [{ value: layers.dotenv[name]!, label: `${name} in .env` }] : []),
    ...layers.settings.layers
      .filter((layer) => !layer.trusted && layer.values[settingKey] !== undefined && layer.values[settingKey] !== null)
      .map((layer) => ({ value: String(layer.values[settingKey]), label: `${settingKey} in ${layer.file}` })),
  ];
  let limit = own;
  for (const lower of folder) {
    const value = parseNumberSetting(name, lower.value, fallback, lower.label, configError);
    if (value < limit) limit = value;
    else if (value > own) layers.sources.notes.push(`(${lower.label} was ignored: a folder may lower this limit, not raise it; ${digits(own)} stays)`);
  }
  return limit;
}

/** A variable's name, with the file it came from when that is not the environment (`.env`, settings). */
export function whereSet(name: string, sources: SettingsSources): string {
  const layer = sources.lookup(name)?.layer;
  return layer === undefined || layer.label === 'the environment' ? name : `${name} (in ${layer.label})`;
}

/**
 * Keys from every variable that names a credential (`*_KEY`, `*_TOKEN`, `*PASSWORD*`…) and the
 * passwords of URLs (`DATABASE_URL=postgres://u:pw@…`); the keyless placeholder is no secret.
 */
export function knownSecrets(env: Environment, apiKey: string | undefined): string[] {
  const values = Object.entries(env).flatMap(([name, value]) =>
    value === undefined ? [] : [isCredentialName(name) ? value : undefined, urlPassword(value)],
  );
  return [...new Set([apiKey, ...values])].filter((value): value is string => value !== undefined && value !== 'no-key' && value.trim() !== '');
}

export const truthy = (raw: string | undefined): boolean => raw !== undefined && /^(1|true|yes|on)$/i.test(raw.trim());
export const nonEmpty = (raw: string | undefined): string | undefined => (raw && raw.trim() !== '' ? raw.trim() : undefined);
