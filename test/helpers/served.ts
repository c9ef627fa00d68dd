import { atEachFileEnd } from './file-end.mjs';

const open = new Set<{ close(): Promise<void> }>();
// Once each test file's tests are done (in a shard too, where files share this module).
atEachFileEnd(async () => {
  const closing = [...open];
  open.clear();
  await Promise.all(closing.map((server) => server.close()));
});

/** Closes `server` when the importing test file ends; returns it. */
export function closeAtEnd<SERVER extends { close(): Promise<void> }>(server: SERVER): SERVER {
  open.add(server);
  return server;
}

/** The environment that points Sylvan's DashScope provider at a loopback server. */
export const dashscopeEnv = (server: { baseURL: string }, extra: Record<string, string> = {}): Record<string, string> => ({
  DASHSCOPE_API_KEY: 'test-key',
  DASHSCOPE_BASE_URL: server.baseURL,
  ...extra,
});
