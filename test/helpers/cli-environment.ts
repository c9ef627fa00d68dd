import { join } from 'node:path';

/**
 * The whole environment a CLI under test starts with: nothing from the developer's shell but PATH
 * (no keys, no colour), HOME and Sylvan's home inside `workspace`, the mock model without delay.
 */
export const cleanCliEnvironment = (workspace: string): Record<string, string> => ({
  PATH: process.env.PATH ?? '',
  HOME: workspace,
  SYLVAN_HOME: join(workspace, '.sylvan-home'),
  SYLVAN_MOCK_DELAY_MS: '0',
  SYLVAN_NO_NODE_WARNING: '1',
  NO_COLOR: '1',
});
