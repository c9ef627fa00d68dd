// Types of build-inputs.mjs, for the TypeScript test that imports it.
export function recordInputs(root: string, target: string, inputs: string[], outputs: string[]): void;
export function isCurrent(root: string, target: string): boolean;
