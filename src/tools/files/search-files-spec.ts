import type { ToolSpec } from '../tool-spec.ts';

/** Its result is a heading and then one `path:line: text` match a line, shown as a listing. */
export const searchFilesSpec: ToolSpec<'search_files'> = { name: 'search_files', otherNames: ['Grep'], kind: 'search', display: 'listing' };
