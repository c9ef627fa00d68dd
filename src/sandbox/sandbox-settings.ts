/**
 * Whether commands run in a sandbox, and with network: `--sandbox off|on|auto`, `SYLVAN_SANDBOX`,
 * and the settings key `"sandbox": { "mode": "auto" | "on" | "off", "network": false }`. Kept light
 * (no imports): the config reads it before the prompt.
 *
 * - `auto` (the default): sandboxed where a sandbox can start, else as before, said once.
 * - `on`: sandboxed or not run at all. `off`: never sandboxed.
 *
 * The flag wins; then the real environment, then the user's settings. What came with the folder
 * (`.env`, `.sylvan/settings.json`) may only make it stricter: turn it on, never off, and never
 * allow the network.
 */
/** Makes the one-line error for a wrong value (the config's ConfigError: exit code 2); no import of the config here, so no cycle. */
type Fail = (message: string) => Error;

export type SandboxMode = 'auto' | 'on' | 'off';

export interface SandboxSettings {
  mode: SandboxMode;
  /** Commands reach the network (the sandbox shares the host's); off by default. */
  network: boolean;
  /** What chose the mode, for the banner and `/sandbox`: "--sandbox off", "SYLVAN_SANDBOX=off", a settings file. */
  source: string;
}

const MODES: readonly SandboxMode[] = ['off', 'auto', 'on'];
const strictness = (mode: SandboxMode): number => MODES.indexOf(mode);

interface Layer {
  file: string;
  trusted: boolean;
  values: Record<string, unknown>;
}

function parseMode(raw: string | undefined, name: string, fail: Fail): SandboxMode | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const mode = raw.trim().toLowerCase();
  if (mode === 'auto' || mode === 'on' || mode === 'off') return mode;
  throw fail(`${name} must be auto, on or off, got "${raw}".`);
}

function settingsOf(layer: Layer, fail: Fail): { mode?: SandboxMode; network?: boolean } {
  const raw = layer.values.sandbox;
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw fail(`${layer.file}: sandbox: must be an object, like { "mode": "auto", "network": false }.`);
  }
  const { mode, network, ...rest } = raw as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) throw fail(`${layer.file}: sandbox.${unknown}: unknown setting; known: mode, network.`);
  if (network !== undefined && typeof network !== 'boolean') throw fail(`${layer.file}: sandbox.network: must be true or false.`);
  if (mode !== undefined && typeof mode !== 'string') throw fail(`${layer.file}: sandbox.mode: must be auto, on or off.`);
  const parsed = parseMode(mode as string | undefined, `${layer.file}: sandbox.mode`, fail);
  if (!layer.trusted && parsed === 'off') {
    throw fail(`${layer.file}: sandbox.mode: a project settings file cannot turn the sandbox off; use --sandbox off or $SYLVAN_HOME/settings.json.`);
  }
  if (!layer.trusted && network === true) {
    throw fail(`${layer.file}: sandbox.network: a project settings file cannot give commands the network; set it in $SYLVAN_HOME/settings.json.`);
  }
  return { mode: parsed, network: network as boolean | undefined };
}

/**
 * The sandbox settings in force. `trustedVariable` is SYLVAN_SANDBOX from the real environment,
 * `folderVariable` the one from the folder's `.env` (it may only raise). Throws what `fail` makes (ConfigError in the config).
 */
export function resolveSandboxSettings(input: {
  flag: string | undefined;
  trustedVariable: string | undefined;
  folderVariable: string | undefined;
  layers: readonly Layer[];
  fail: Fail;
}): SandboxSettings {
  const { fail } = input;
  const user = input.layers.filter((layer) => layer.trusted).map((layer) => ({ file: layer.file, ...settingsOf(layer, fail) }));
  const project = input.layers.filter((layer) => !layer.trusted).map((layer) => ({ file: layer.file, ...settingsOf(layer, fail) }));
  const network = user.map((layer) => layer.network).filter((n) => n !== undefined).at(-1) ?? false;
  const flag = parseMode(input.flag, '--sandbox', fail);
  if (flag !== undefined) return { mode: flag, network, source: `--sandbox ${flag}` };
  const variable = parseMode(input.trustedVariable, 'SYLVAN_SANDBOX', fail);
  const userLayer = user.filter((layer) => layer.mode !== undefined).at(-1);
  let chosen: { mode: SandboxMode; source: string } = variable
    ? { mode: variable, source: `SYLVAN_SANDBOX=${variable}` }
    : userLayer?.mode
      ? { mode: userLayer.mode, source: `sandbox.mode in ${userLayer.file}` }
      : { mode: 'auto', source: 'the default (auto)' };
  const raises = [
    { mode: parseMode(input.folderVariable, 'SYLVAN_SANDBOX in .env', fail), source: 'SYLVAN_SANDBOX in .env' },
    ...project.map((layer) => ({ mode: layer.mode, source: `sandbox.mode in ${layer.file}` })),
  ];
  for (const raised of raises) {
    if (raised.mode !== undefined && strictness(raised.mode) > strictness(chosen.mode)) chosen = { mode: raised.mode, source: raised.source };
  }
  return { ...chosen, network };
}
