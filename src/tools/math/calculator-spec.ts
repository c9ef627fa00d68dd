import type { ToolSpec } from '../tool-spec.ts';

export const calculatorSpec: ToolSpec<'calculate'> = { name: 'calculate', kind: 'think' };
