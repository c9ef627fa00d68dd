/**
 * Where each setting came from. Configuration is a stack of layers (the shell's environment, a
 * user's own files, the working folder's `.env` or settings…), highest precedence first. A layer
 * the user did not write themselves — anything found in the folder Sylvan was started in — is
 * *untrusted*: it may bring its own key together with its own base URL, but it may never send a key
 * from another layer somewhere else, and it may never switch approval off.
 */

type Environment = Record<string, string | undefined>;

export interface SettingsLayer {
  /** Shown to the user in notes, e.g. "the environment", ".env in this folder". */
  readonly label: string;
  /** False for files that come with the working folder (they may belong to anyone). */
  readonly trusted: boolean;
  readonly values: Environment;
}

export interface SourcedValue {
  readonly value: string;
  readonly layer: SettingsLayer;
}

/** Variables that approve tool calls without asking; an untrusted layer may not set them. */
const APPROVAL_VARIABLES = ['SYLVAN_YES'] as const;

/** The layers in precedence order, answering "which value wins, and from where". */
export class SettingsSources {
  /** One line each, dimmed by the UI: values from an untrusted layer that were ignored. */
  readonly notes: string[] = [];

  constructor(private readonly layers: readonly SettingsLayer[]) {}

  /** The winning non-empty value of `name` (an empty value counts as unset, so it hides nothing). */
  lookup(name: string): SourcedValue | undefined {
    for (const layer of this.layers) {
      const raw = layer.values[name];
      if (raw !== undefined && raw.trim() !== '') return { value: raw.trim(), layer };
    }
    return undefined;
  }

  /** The winning value of `name` from trusted layers only. */
  lookupTrusted(name: string): SourcedValue | undefined {
    return new SettingsSources(this.layers.filter((layer) => layer.trusted)).lookup(name);
  }

  /**
   * A base URL for the key in `keyVariable`: a base URL from an untrusted layer counts only when the
   * same layer also provided the key that will be sent (or no key is sent at all); otherwise the
   * trusted layers' base URL (or none, meaning the provider's default) is used and a note says so.
   */
  baseUrlFor(keyVariable: string, baseUrlVariable: string): string | undefined {
    const base = this.lookup(baseUrlVariable);
    if (base === undefined || base.layer.trusted) return base?.value;
    const key = this.lookup(keyVariable);
    if (key === undefined || key.layer === base.layer) return base.value;
    this.notes.push(
      `(${baseUrlVariable} in ${base.layer.label} was ignored: it would send your ${keyVariable} from ${key.layer.label} to another server)`,
    );
    return this.lookupTrusted(baseUrlVariable)?.value;
  }

  /** Whether approval is switched off by a variable; an untrusted layer's value is ignored with a note. */
  approvesEverything(truthy: (raw: string | undefined) => boolean): boolean {
    return APPROVAL_VARIABLES.some((name) => {
      const found = this.lookup(name);
      if (found === undefined || found.layer.trusted) return truthy(found?.value);
      if (truthy(found.value)) this.notes.push(`(${name} in ${found.layer.label} was ignored: only you can switch approvals off, with --yes or in your shell)`);
      return truthy(this.lookupTrusted(name)?.value);
    });
  }

  /** Every value by name, the winning layer's, for settings without a trust rule. */
  merged(): Environment {
    const merged: Environment = {};
    for (const layer of [...this.layers].reverse()) {
      for (const [name, value] of Object.entries(layer.values)) if (value !== undefined && value !== '') merged[name] = value;
    }
    return merged;
  }
}
