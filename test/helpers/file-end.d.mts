// Types of file-end.mjs, for the TypeScript helpers that import it.
export function atEachFileEnd(end: () => void | Promise<void>): void;
export function fileEnding(): boolean;
export function inShard(): boolean;
export function enterShard(): void;
export function fileStarts(): void;
export function fileEnds(): Promise<unknown[]>;
export function hookFailed(hook: string, error: unknown): void;
export function hookFailures(): { hook: string; error: unknown }[];
