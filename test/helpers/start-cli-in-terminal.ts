import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliEntry, tempWorkspace, tsxLoader } from './start-cli.ts';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

export interface TerminalCli {
  /** The `script` process holding the pseudo-terminal; its stdout is the screen. */
  child: ChildProcessWithoutNullStreams;
  /** The CLI's own process id (the shell execs into node, so it is the shell's), for signals. */
  cliPid: Promise<number>;
  /** Resolves with `script`'s exit code once the terminal closed. */
  exited: Promise<number | null>;
}

/**
 * The CLI from source in a real pseudo-terminal (util-linux `script`), so stdin is a TTY: the
 * environment is clean as in `startCli` (own SYLVAN_HOME in `cwd`). The caller kills it.
 */
export function startCliInTerminal(options: { cwd?: string; env?: Record<string, string>; args?: string[] } = {}): TerminalCli {
  const cwd = options.cwd ?? tempWorkspace();
  const node = [process.execPath, '--import', tsxLoader, cliEntry, ...(options.args ?? [])].map(quote).join(' ');
  const child = spawn('script', ['-qfec', `echo "cli-pid:$$"; exec ${node}`, '/dev/null'], {
    cwd,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: cwd,
      TERM: 'xterm',
      NO_COLOR: '1',
      SYLVAN_HOME: join(cwd, '.sylvan-home'),
      SYLVAN_MOCK_DELAY_MS: '0',
      SYLVAN_NO_NODE_WARNING: '1',
      ...options.env,
      TSX_TSCONFIG_PATH: join(projectRoot, 'tsconfig.json'),
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdout.setEncoding('utf8');
  const cliPid = new Promise<number>((resolve, reject) => {
    let seen = '';
    const onData = (chunk: string) => {
      seen += chunk;
      const match = /cli-pid:(\d+)/.exec(seen);
      if (match) {
        child.stdout.off('data', onData);
        resolve(Number(match[1]));
      }
    };
    child.stdout.on('data', onData);
    child.on('close', () => reject(new Error(`the terminal closed before the CLI started:\n${seen}`)));
  });
  cliPid.catch(() => {});
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, cliPid, exited };
}
