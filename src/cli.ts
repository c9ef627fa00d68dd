import { readFileSync } from 'node:fs';
import { ConfigError } from './shared/config-error.ts';
import { HELP, parseCommandLine } from './config/flags.ts';
import { loadConfig } from './config/load-config.ts';
import type { Config } from './config/config.ts';
import { InputHistory } from './ui/repl/input-history.ts';
import { createTerminalReader } from './ui/input/editor/terminal-reader.ts';
import { answerHangUp, endByHangUp } from './shared/hang-up.ts';
import { prepareHome } from './session/session-home.ts';
import { assertResumable, resolveResume, type Replay } from './ui/commands/resume.ts';
import { loadedFilesLine } from './ui/render/loaded-files-line.ts';
import { chalkFor } from './ui/render/render.ts';
import { drainOutput, exitQuietlyOnClosedPipe } from './ui/repl/exit.ts';
import { bannerLine, bannerLines } from './ui/repl/banner.ts';
import { sanitize, sanitizeLine } from './shared/text/sanitize.ts';
import { runRepl } from './ui/repl/repl.ts';
import { isMessagePrompt } from './ui/render/mode-display.ts';
import { SLASH_COMMAND_SUMMARIES, SLASH_COMMANDS } from './ui/commands/slash-commands.ts';
import { loadCustomCommands } from './prompt-files/load-commands.ts';
import type { LoadedCommands } from './prompt-files/custom-command.ts';
import { commandSummaries } from './ui/commands/prompt-file-commands.ts';
import { mcpPromptCommands, mcpResources } from './ui/input/mcp-completion.ts';
import { processIo, type CliIo } from './ui/cli-io.ts';
import type { EditorFiles } from './shared/editor-files.ts';
import type { ResumedHistory } from './runtime/runtime.ts';

/**
 * A SessionEnd hook's default bound (60 s, hooks/hook-runner.ts) and a margin for closing the MCP
 * servers; not imported from there, since the hooks' runner loads with the runtime, after the prompt.
 */
const WAY_OUT_AFTER_HANG_UP_MS = 65_000;

/** package.json's version, put in by the build (scripts/build.mjs), so a prompt reads no file for it. */
declare const SYLVAN_VERSION: string | undefined;

function version(): string {
  if (typeof SYLVAN_VERSION === 'string') return SYLVAN_VERSION;
  const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return packageJson.version;
}

async function readAll(input: CliIo['stdin']): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** The terminal's width, for wrapping the banner; none for a pipe. */
const terminalColumns = (io: CliIo) => (io.stdout.isTTY ? io.stdout.columns : undefined);

function banner(config: Config, io: CliIo): string {
  return bannerLines(config, version(), chalkFor(io.stdout, io.env), terminalColumns(io)).join('\n');
}

/**
 * A file of the installation that could not be loaded, said as what to do: a package gone from
 * node_modules, or a chunk of the build gone after start-up (the build was removed or changed by
 * hand while Sylvan ran: `npm run build` keeps an earlier build's chunks). undefined for any other error.
 */
function missingFromInstall(error: unknown, message: string): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return undefined;
  const name = /Cannot find (?:module|package) '([^']+)'/.exec(message)?.[1];
  if (name === undefined) return undefined;
  if (!name.startsWith('/') && !name.startsWith('.') && !name.startsWith('file:')) {
    return `the package ${name} is missing from node_modules. Run \`npm install\` in the Sylvan folder.`;
  }
  return `${name} is missing from the build. Run \`npm install\` (or \`npm run build\`) in the Sylvan folder again.`;
}

/** How a failure outside any turn reaches the user: one line, the stack only with SYLVAN_DEBUG=1. */
function fail(error: unknown, debug: boolean, stderr: CliIo['stderr']): number {
  if (error instanceof ConfigError) {
    stderr.write(`sylvan: ${sanitize(error.message)}\n`);
    return 2;
  }
  const message = error instanceof Error ? error.message : String(error);
  const missing = missingFromInstall(error, message);
  if (missing !== undefined) {
    stderr.write(`sylvan: ${sanitizeLine(missing)}\n`);
    return 1;
  }
  stderr.write(`sylvan: ${sanitizeLine(message.split('\n')[0] ?? '')}\n`);
  if (debug && error instanceof Error && error.stack) stderr.write(`${sanitize(error.stack)}\n`);
  else stderr.write('Run with SYLVAN_DEBUG=1 for details.\n');
  return 1;
}

async function loadRuntime(config: Config, resumed: ResumedHistory | undefined, editorFiles?: EditorFiles) {
  // The provider package loads beside the runtime, not after it: this is on the way to the first request.
  const [{ createRuntime }, modelFactory] = await Promise.all([
    import('./runtime/create-runtime.ts'),
    import('./providers/load-model-factory.ts').then(({ loadModelFactory }) => loadModelFactory(config)),
  ]);
  return createRuntime(config, { resumed, modelFactory, editorFiles });
}

/** The whole program: resolves with the exit code once stdout and stderr have drained. */
export async function main(argv = process.argv.slice(2)): Promise<number> {
  const debug = isDebug(process.env);
  // Node prints process warnings (an experimental API on older Node, the SDK's notices) straight
  // to the terminal; only the UI writes there, and only with SYLVAN_DEBUG=1 do they matter.
  process.removeAllListeners('warning');
  process.on('warning', (warning) => {
    if (debug) process.stderr.write(`${warning.name}: ${warning.message}\n`);
  });
  // `sylvan -p … | head` closes the pipe early: that is the reader's choice, not an error.
  exitQuietlyOnClosedPipe();
  const code = await runCli(argv, processIo());
  await drainOutput();
  return code;
}

const isDebug = (env: CliIo['env']) => /^(1|true)$/i.test(env.SYLVAN_DEBUG ?? '');

/**
 * Everything `sylvan` does between its arguments and its exit code, given its process's
 * environment, folder and streams (`main` hands in the real ones; the tests run print mode and
 * piped input in-process this way, test/helpers/run-cli-in-process.ts). Never throws.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const debug = isDebug(io.env);
  let config: Config;
  try {
    const loaded = loadConfig(argv, io.env, io.cwd);
    if ('help' in loaded) {
      io.stdout.write(`${HELP}\n`);
      return 0;
    }
    if ('version' in loaded) {
      io.stdout.write(`${version()}\n`);
      return 0;
    }
    config = loaded;
  } catch (error) {
    // An editor cannot read stderr's line: over ACP a missing key is said where the editor shows it.
    if (error instanceof ConfigError && wantsAcp(argv)) return runAcpMode(argv, { problem: error, cwd: io.cwd }, io).catch((failure: unknown) => fail(failure, debug, io.stderr));
    return fail(error, debug, io.stderr);
  }
  for (const note of config.notes ?? []) io.stderr.write(`${chalkFor(io.stderr, io.env).dim(sanitizeLine(note))}\n`);
  try {
    prepareHome(config.home);
  } catch (error) {
    return fail(new ConfigError((error as Error).message), debug, io.stderr);
  }

  if (config.mode.kind === 'acp') {
    try {
      return await runAcpMode(argv, config, io);
    } catch (error) {
      return fail(error, debug, io.stderr);
    }
  }
  const customCommands = loadCustomCommands({ workspaceRoot: config.cwd, home: config.home, builtIns: SLASH_COMMANDS });

  try {
    // --json alone means print mode too: a missing question names it, not a -p the user never typed.
    const flag = config.json && !argv.some((argument) => argument === '-p' || argument === '--print') ? '--json' : '-p';
    if (config.mode.kind === 'print') return await runPrintMode(config, config.mode.prompt, io, customCommands, flag);
    assertResumable(config);
    return await runReplMode(config, io, customCommands, debug);
  } catch (error) {
    return fail(error, debug, io.stderr);
  }
}

/** `sylvan -p`: the question from the arguments or else stdin, one turn, the runtime closed after it. */
async function runPrintMode(config: Config, question: string | undefined, io: CliIo, customCommands: LoadedCommands, flag: '-p' | '--json'): Promise<number> {
  let prompt = question;
  if (prompt === undefined) {
    if (io.stdin.isTTY) throw new ConfigError(`${flag} needs a question (it answers one and exits): sylvan ${flag} "your question", or pipe it on stdin.`);
    prompt = (await readAll(io.stdin)).trim();
    if (prompt === '') throw new ConfigError(`${flag} got an empty question on stdin: sylvan ${flag} "your question", or pipe it in.`);
  }
  const resumed = await resolveResume(config, undefined, (line) => io.stderr.write(`${line}\n`));
  const controller = new AbortController();
  const stopListening = io.onSigint(() => controller.abort());
  const runtime = await loadRuntime(config, resumed);
  try {
    const { runPrint } = await import('./ui/print/print.ts');
    return await runPrint({
      config,
      prompt,
      runtime,
      stdout: io.stdout,
      stderr: io.stderr,
      signal: controller.signal,
      customCommands,
    });
  } finally {
    await runtime.endSession('other');
    runtime.close();
    await runtime.mcp.close();
    stopListening();
  }
}

/** What `sylvan --acp` starts from: the folder's configuration, or why it could not be loaded. */
type AcpStartup = Config | { problem: ConfigError; cwd: string };

/** Whether the command line asks for ACP (it parses, even if the configuration does not load). */
function wantsAcp(argv: string[]): boolean {
  try {
    const line = parseCommandLine(argv);
    return 'mode' in line && line.mode.kind === 'acp';
  } catch {
    return false;
  }
}

/** `sylvan --acp`: an editor's agent on stdin/stdout; the ACP library is loaded only here. */
async function runAcpMode(argv: string[], startup: AcpStartup, io: CliIo): Promise<number> {
  const { runAcp } = await import('./ui/acp/run-acp.ts');
  return runAcp({
    argv,
    env: io.env,
    startup,
    version: version(),
    stdin: io.stdin,
    stdout: io.stdout as NodeJS.WritableStream,
    log: (line) => io.stderr.write(`${sanitizeLine(line)}\n`),
    loadRuntime,
    loadCommands: (sessionConfig) => loadCustomCommands({ workspaceRoot: sessionConfig.cwd, home: sessionConfig.home, builtIns: SLASH_COMMANDS }),
  });
}

/** The REPL: a terminal's line editor or a pipe's lines, the banner, then turns until the input ends. */
async function runReplMode(config: Config, io: CliIo, customCommands: LoadedCommands, debug: boolean): Promise<number> {
  const interactive = io.stdin.isTTY === true;
  const dim = chalkFor(io.stdout, io.env).dim;
  const customSummaries = commandSummaries(customCommands);
  const inputHistory = interactive ? new InputHistory(config.home) : undefined;
  let runtime: Awaited<ReturnType<typeof loadRuntime>> | undefined;
  const reader = interactive
    ? createTerminalReader({
        // Only a real process has a terminal on stdin (processIo): its streams are Node's.
        input: io.stdin as NodeJS.ReadStream,
        output: io.stdout as NodeJS.WriteStream,
        history: inputHistory?.entries ?? [],
        completion: {
          commands: SLASH_COMMAND_SUMMARIES,
          moreCommands: [mcpPromptCommands(() => runtime?.mcp), () => customSummaries],
          workspaceRoot: config.cwd,
          secretPatterns: config.secretPatterns,
          resources: mcpResources(() => runtime?.mcp),
        },
        dim,
      })
    : (await import('./ui/repl/piped-reader.ts')).createPipedReader(io.stdin, (prompt, line) => {
        if (isMessagePrompt(prompt)) io.stdout.write(`${dim(prompt + line)}\n`);
        else io.stdout.write(`${prompt}${line}\n`);
      });
  // The settings' zod pass runs as the runtime loads, after the prompt: its error ends the REPL with code 2.
  let settingsError: ConfigError | undefined;
  const stopAnsweringHangUps = reader.hangUp ? answerHangUp(reader.hangUp) : undefined;
  try {
    io.stdout.write(`${banner(config, io)}\n`);
    const loaded = loadedFilesLine(config, customCommands.commands.length);
    if (loaded) for (const row of bannerLine(loaded, terminalColumns(io))) io.stdout.write(`${dim(row)}\n`);
    for (const note of customCommands.notes) io.stdout.write(`${dim(sanitizeLine(note))}\n`);
    // On a terminal the resumed conversation is drawn again before the prompt; a pipe gets the summary line alone.
    const replay = io.stdout.isTTY
      ? async (messages: Parameters<Replay>[0]) => (await import('./ui/render/transcript.ts')).replayTranscript(messages, io.stdout)
      : undefined;
    const resumed = await resolveResume(config, reader, (line) => io.stdout.write(`${dim(line)}\n`), replay);
    const code = await runRepl({
      config,
      reader,
      output: io.stdout,
      loadRuntime: async () => {
        try {
          return (runtime = await loadRuntime(config, resumed));
        } catch (error) {
          if (error instanceof ConfigError) {
            settingsError = error;
            reader.close();
          }
          throw error;
        }
      },
      rememberLine: inputHistory ? (line) => inputHistory.append(line) : undefined,
      customCommands,
      pipedInput: !interactive,
      onInterrupt: (handler) => {
        // The editor holds the terminal in raw mode: Ctrl-C and Esc come to it as keys, not SIGINT.
        if (reader.onInterrupt) return reader.onInterrupt(handler);
        return io.onSigint(handler);
      },
    });
    return settingsError ? fail(settingsError, debug, io.stderr) : code;
  } finally {
    // After a hang-up nobody waits at the terminal: a way out that stalls is cut short.
    if (reader.hungUp) setTimeout(endByHangUp, WAY_OUT_AFTER_HANG_UP_MS);
    await runtime?.endSession(reader.hungUp ? 'other' : 'prompt_input_exit');
    runtime?.close();
    reader.close();
    await runtime?.mcp.close();
    stopAnsweringHangUps?.();
    if (reader.hungUp) endByHangUp();
  }
}
