// Types of file-budgets.mjs, for the TypeScript tests that import it.
export const SPAWNING_FILES: Record<string, { seconds: number; waitsFor: string }>;
export const STARTS_THE_CLI: RegExp;
export const IN_PROCESS_SECONDS: Record<string, number>;
export const RUN_ALONE: Record<string, string>;
export const SAME_SHARD: string[][];
