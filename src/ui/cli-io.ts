import type { Output } from './render/render.ts';

/**
 * What the CLI takes from its process: the environment, the folder it started in, its three
 * streams and Ctrl-C. `main` hands in the real process (`processIo`); the tests hand in their own
 * to run print mode and piped input in-process (test/helpers/run-cli-in-process.ts).
 */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: Output;
  stderr: Output;
  /** Subscribes to Ctrl-C (SIGINT); returns the unsubscribe. */
  onSigint(handler: () => void): () => void;
}

/** The running process as a `CliIo`. */
export function processIo(): CliIo {
  return {
    env: process.env,
    cwd: process.cwd(),
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    onSigint(handler) {
      process.on('SIGINT', handler);
      return () => process.off('SIGINT', handler);
    },
  };
}
