import type { ToolSpec } from '../tool-spec.ts';

/** Its result is a heading and then one file a line, shown as a listing. */
export const listFilesSpec: ToolSpec<'list_files'> = { name: 'list_files', otherNames: ['Glob'], kind: 'read', display: 'listing' };
