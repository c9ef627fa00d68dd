import { startDashScopeServer, type DashScopeServer, type Reply, type Responder } from './dashscope-server.ts';
import { closeAtEnd } from './served.ts';
import { removeTempWorkspaces, runCli, tempWorkspace, type CliOptions, type CliResult } from './run-cli-limited.ts';
import { atEachFileEnd } from './file-end.mjs';

export interface ServerRun {
  server: DashScopeServer;
  result: CliResult;
  /** The working directory; SYLVAN_HOME (sessions) lives inside it. */
  cwd: string;
}

atEachFileEnd(removeTempWorkspaces);

/**
 * Starts a loopback DashScope (scripted by `respond` or `replies`, accepting only `key`) and runs the
 * CLI against it. Runs start at once and overlap (at most three processes); a test awaits the one it
 * inspects. With `keyFromDotenv`, the key is not put in the environment: the workspace's .env must hold it.
 */
export function cliAgainstServer(
  script: { respond: Responder } | { replies: Reply[] },
  options: CliOptions & { key: string; keyFromDotenv?: boolean },
): Promise<ServerRun> {
  return againstServer(script, options, runCli);
}

/** `cliAgainstServer` with the CLI run by `runner` (the built CLI, or in-process: in-process-against-server.ts). */
export function againstServer(
  script: { respond: Responder } | { replies: Reply[] },
  options: CliOptions & { key: string; keyFromDotenv?: boolean },
  runner: (options: CliOptions) => Promise<CliResult>,
): Promise<ServerRun> {
  const { key, keyFromDotenv, ...cliOptions } = options;
  const run = (async () => {
    const server = closeAtEnd(await startDashScopeServer({ ...script, apiKey: key }));
    const cwd = cliOptions.cwd ?? tempWorkspace();
    const env = {
      ...(!keyFromDotenv && { DASHSCOPE_API_KEY: key }),
      DASHSCOPE_BASE_URL: server.baseURL,
      SYLVAN_MAX_RETRIES: '0',
      ...cliOptions.env,
    };
    return { server, cwd, result: await runner({ ...cliOptions, cwd, env }) };
  })();
  run.catch(() => {});
  return run;
}

/** `runCli` started now, its failure left to the test that awaits it. */
export function startedRun(options: CliOptions): Promise<CliResult> {
  const run = runCli(options);
  run.catch(() => {});
  return run;
}
