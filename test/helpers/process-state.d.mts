// Types of process-state.mjs, for the test that checks it.
export interface Snapshot {
  readonly env: Record<string, string | undefined>;
  readonly cwd: string;
}
export interface Change {
  text: string;
  restore(): void;
}
export function snapshot(): Snapshot;
export function listeners(): Map<string | symbol, Function[]>;
export function changesSince(before: Snapshot, loaded?: Map<string | symbol, Function[]>): Change[];
export function stillRunning(before: Snapshot): boolean;
