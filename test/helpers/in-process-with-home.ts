import type { Reply } from './dashscope-server.ts';
import { inProcessAgainstServer, type ServerRun } from './in-process-against-server.ts';
import type { CliOptions } from './run-cli.ts';

/** The CLI in this process against a loopback DashScope, in `cwd` with its own home folder (`~/.claude/skills`) outside it. */
export function inProcessAgentServer(folders: { cwd: string; home: string }, key: string, replies: Reply[], options: CliOptions = {}): Promise<ServerRun> {
  return inProcessAgainstServer({ replies }, { key, cwd: folders.cwd, ...options, env: { HOME: folders.home, SYLVAN_SANDBOX: 'off', ...options.env } });
}
