import type { ToolSpec } from '../tool-spec.ts';

export const readFileSpec: ToolSpec<'read_file'> = { name: 'read_file', otherNames: ['Read'], kind: 'read' };
