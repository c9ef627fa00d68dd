import type { Reply, Responder } from './dashscope-server.ts';
import { againstServer, type ServerRun } from './cli-against-server.ts';
import { runCliInProcess } from './run-cli-in-process.ts';
import type { CliOptions } from './run-cli.ts';

export type { ServerRun };

/** `cliAgainstServer` (cli-against-server.ts) with the CLI run in this process (run-cli-in-process.ts). */
export function inProcessAgainstServer(
  script: { respond: Responder } | { replies: Reply[] },
  options: CliOptions & { key: string; keyFromDotenv?: boolean },
): Promise<ServerRun> {
  return againstServer(script, options, runCliInProcess);
}
