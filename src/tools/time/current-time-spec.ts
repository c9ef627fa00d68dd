import type { ToolSpec } from '../tool-spec.ts';

export const currentTimeSpec: ToolSpec<'current_time'> = { name: 'current_time', kind: 'think' };
