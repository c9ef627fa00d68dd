import type { ToolSpec } from '../tool-spec.ts';

/** Reads a forecast from one fixed service: nothing of the user's leaves but a place name. */
export const weatherSpec: ToolSpec<'get_weather'> = { name: 'get_weather', kind: 'fetch' };
