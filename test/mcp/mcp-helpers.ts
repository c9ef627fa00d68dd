import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const modules = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/', import.meta.url));
/** The reference servers, installed as devDependencies. */
export const EVERYTHING = join(modules, 'server-everything', 'dist', 'index.js');
export const FILESYSTEM = join(modules, 'server-filesystem', 'dist', 'index.js');
/** Our misbehaving server (test/fixtures/mcp/test-server.mjs): bundled into one file by `npm test` (test/compile-tests.mjs), which starts faster. */
export const TEST_SERVER = process.env.SYLVAN_TEST_MCP_SERVER ?? fileURLToPath(new URL('../fixtures/mcp/test-server.mjs', import.meta.url));

/** Writes `settings` as the user's settings file of a workspace made by `tempWorkspace` (SYLVAN_HOME is inside it). */
export function writeUserSettings(cwd: string, settings: object): void {
  const file = join(cwd, '.sylvan-home', 'settings.json');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(settings, null, 2));
}

export function writeProjectSettings(cwd: string, settings: object | string): void {
  mkdirSync(join(cwd, '.sylvan'), { recursive: true });
  writeFileSync(join(cwd, '.sylvan', 'settings.json'), typeof settings === 'string' ? settings : JSON.stringify(settings));
}

/** Pids of processes whose working directory is `folder` (stdio servers start in the workspace). */
export function processesIn(folder: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/cwd`) === folder) pids.push(Number(entry));
    } catch {
      // Gone, or not ours.
    }
  }
  return pids;
}

/**
 * The host pid of the test server that wrote `pidFile` (absolute), or 0 when none is running. A
 * server runs in a PID namespace of its own where bubblewrap does, so the pid it wrote is its pid
 * in there: the process is the one whose innermost pid (NSpid) that is and whose PID_FILE, taken
 * from its own folder, is `pidFile`.
 */
export function serverPid(pidFile: string): number {
  const inner = existsSync(pidFile) ? readFileSync(pidFile, 'utf8').trim() : '';
  if (!/^\d+$/.test(inner)) return 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (/^NSpid:.*\s(\d+)$/m.exec(readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1] !== inner) continue;
      const variable = readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').find((line) => line.startsWith('PID_FILE='));
      if (variable !== undefined && resolve(readlinkSync(`/proc/${entry}/cwd`), variable.slice('PID_FILE='.length)) === pidFile) return Number(entry);
    } catch {
      // Gone, or not ours.
    }
  }
  return 0;
}

/** Running, not a zombie waiting to be reaped. */
export const isAlive = (pid: number): boolean => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

/** Polls `condition` until it holds; fails with `what` after `ms`. */
export async function eventually(condition: () => boolean, what: string, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`within ${ms} ms, never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export const fileHas = (file: string, text: string): boolean => existsSync(file) && readFileSync(file, 'utf8').includes(text);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** server-everything over Streamable HTTP (its `streamableHttp` mode, port from $PORT), ready to take connections. */
export async function startEverythingHttp(): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], { env: { PATH: process.env.PATH ?? '', PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  await eventually(() => stderr.includes('listening on port'), `server-everything said it listens (stderr: ${stderr})`, 15_000);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('close', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
