import type { ToolSpec } from '../tool-spec.ts';

/** Asks nothing: the query goes only to the configured backend. */
export const webSearchSpec: ToolSpec<'web_search'> = { name: 'web_search', otherNames: ['WebSearch'], kind: 'search' };
