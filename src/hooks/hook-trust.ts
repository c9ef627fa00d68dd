import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The projects' hooks the user trusted, in `$SYLVAN_HOME/trusted-hooks.json`: each settings file's
 * path with the fingerprint of its hooks when they were trusted. A project's hooks run only while
 * their fingerprint is the one recorded, so a changed hook is asked about again.
 */
export class HookTrust {
  private readonly file: string;

  constructor(home: string) {
    this.file = join(home, 'trusted-hooks.json');
  }

  isTrusted(settingsFile: string, fingerprint: string): boolean {
    return this.read()[settingsFile] === fingerprint;
  }

  /** Records the hooks as they are now. Throws an error with a readable message when the file cannot be written. */
  trust(settingsFile: string, fingerprint: string): void {
    const records = { ...this.read(), [settingsFile]: fingerprint };
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    // Atomic: a crash leaves the old record or the new, never half of one.
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(records, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, this.file);
  }

  /** An unreadable or damaged record trusts nothing (fails closed). */
  private read(): Record<string, string> {
    try {
      const value: unknown = JSON.parse(readFileSync(this.file, 'utf8'));
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
      return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
    } catch {
      return {};
    }
  }
}
