import { listSessions } from '../../session/session-list.ts';
import { sessionsUnavailable } from '../../session/session-home.ts';
import { parsePromptCall } from '../../prompt-files/mcp-prompt-arguments.ts';
import { cutToWidth } from '../../shared/text/display-width.ts';
import { hooksCommand } from './hooks-command.ts';
import { showInstructions, showMcpServers } from './mcp-commands.ts';
import { modelCommand, thinkCommand } from './model-commands.ts';
import type { ReplState } from '../state/repl-state.ts';
import { sanitize, sanitizeLine } from '../../shared/text/sanitize.ts';
import { fullToolOutput } from '../render/tool-calls.ts';
import { modeCommand } from './mode-command.ts';
import { contextFill, subagentUsageLines, usageReport } from './usage-report.ts';
import { helpSections } from './help-columns.ts';
import { wrapStyled } from '../../shared/text/display-width.ts';
import { todoReport } from '../render/todo-view.ts';
import { findCommand, type CustomCommand } from '../../prompt-files/custom-command.ts';
import { commandHelpLines } from './prompt-file-commands.ts';
import type { CommandTurn } from '../state/command-turn.ts';
import { digits } from '../../shared/text/count-text.ts';

/** What a command leaves the REPL to do: quit, send a turn (an MCP prompt's text, a custom command's prompt), or nothing. */
export type SlashOutcome = 'exit' | CommandTurn | void;

interface SlashCommand {
  name: string;
  usage: string;
  summary: string;
  run(argument: string, state: ReplState): Promise<SlashOutcome> | SlashOutcome;
}

/** The editor's keys, as /help lists them. */
const KEYS: readonly (readonly [string, string])[] = [
  ['Enter', 'send the message'],
  ['\\ Enter, Ctrl-J', 'new line (also Shift+Enter, Alt+Enter)'],
  ['← → Home End', 'move (Ctrl-A / Ctrl-E: start / end of line)'],
  ['Ctrl/Alt + ← →', 'move by word'],
  ['↑ ↓', 'move between lines, then through earlier messages'],
  ['Ctrl-R', 'search earlier messages (again: older; Enter sends; → edits; Esc cancels)'],
  ['Ctrl-G, Ctrl-X Ctrl-E', 'edit the message in $VISUAL / $EDITOR'],
  ['Ctrl-U Ctrl-K Ctrl-W', 'delete to line start / to line end / the word before'],
  ['Ctrl-L', 'clear the screen'],
  ['Tab', 'complete a /command or an @path'],
  ['Esc Esc', 'at an empty prompt: /rewind'],
  ['Shift+Tab', 'switch the mode: ask → auto-edit → plan'],
  ['Ctrl-O', 'show the last tool result whole (again: hide it); /last prints them all'],
  ['@path', 'attach a workspace file (or a picture, for a model that sees images) to the message'],
  ['!command', 'run a shell command yourself, without a question; its output joins the conversation'],
  ['typing during an answer', 'shown under it; Enter queues it as the next message, Esc/Ctrl-C gives it back'],
];

/** What the rows around the prompt show, as /help lists them. */
const STATUS: readonly (readonly [string, string])[] = [
  ['under the prompt', 'the git branch, the approval mode and what it means'],
  ['during an answer', 'what is happening, seconds, retries (rate limited · retrying (1/3) in 2 s)'],
];

const COMMANDS: SlashCommand[] = [
  {
    name: '/help',
    usage: '/help',
    summary: 'this list',
    run(_argument, state) {
      for (const row of helpLines(state.columns(), state.dim, commandHelpLines(state.customCommands), state.customCommands?.notes)) state.print(row);
    },
  },
  {
    name: '/tools',
    usage: '/tools',
    summary: 'the tools the model can call',
    run(_argument, state) {
      state.print(`  ${state.runtime.toolNames.join(', ')}`);
    },
  },
  {
    name: '/approvals',
    usage: '/approvals',
    summary: 'show the approvals; reset this session\'s "always" answers',
    run(_argument, state) {
      const always = [...state.approval.always];
      const ahead = [...state.approval.approvedAhead];
      if (always.length === 0 && ahead.length === 0) {
        state.print('  Nothing is always-approved: you are asked before each file write, command, new web domain and untrusted MCP tool.');
        return;
      }
      // The settings' keys are the user's standing choice, made in a file: a reset forgets only this session's answers.
      if (ahead.length > 0) {
        state.print(`  Approved ahead by your settings (permissions.allow; a reset keeps them): ${ahead.map(sanitizeLine).join(', ')}.`);
      }
      if (always.length === 0) {
        state.print('  Nothing was answered "always" this session.');
        return;
      }
      state.approval.always.clear();
      state.print(`  Always-approved this session: ${always.map(sanitizeLine).join(', ')}. Reset: you will be asked again.`);
    },
  },
  {
    name: '/mode',
    usage: '/mode [name]',
    summary: 'what asks first: ask, auto-edit (edits apply), plan (read-only)',
    run: (argument, state) => modeCommand(argument, state),
  },
  {
    name: '/usage',
    usage: '/usage',
    summary: 'tokens used this session, and the estimated cost',
    run(_argument, state) {
      const report = usageReport(state.runtime.model, state.runtime.sessionUsage, state.runtime.pricing);
      state.print(report.totals);
      if (report.cache) state.print(report.cache);
      for (const line of subagentUsageLines(state.runtime.subagentUsage)) state.print(sanitizeLine(line));
      const context = contextFill(state.runtime);
      state.print(`  context: ${context.percent}% of the ${context.window} window`);
      state.print(report.cost ?? state.dim(report.unpriced ?? ''));
    },
  },
  {
    name: '/compact',
    usage: '/compact [instructions]',
    summary: 'replace older turns with a summary',
    async run(argument, state) {
      if (state.runtime.conversation.length === 0) {
        state.print('  Nothing to compact yet.');
        return;
      }
      const before = state.runtime.historyTokens();
      state.print(state.dim('  summarising the conversation…'));
      const stopStatus = state.status('Compacting the conversation…');
      const result = await state
        .interruptible((signal) => state.runtime.compact(argument.trim() || undefined, signal))
        .finally(stopStatus);
      if (!result.ok) {
        state.print(`  ${sanitize(result.message)}`);
        return;
      }
      const after = state.runtime.historyTokens();
      state.print(state.dim(`  compacted: history ≈ ${digits(before)} → ${digits(after)} tokens`));
    },
  },
  {
    name: '/sessions',
    usage: '/sessions',
    summary: 'recent sessions in this folder (resume one with /resume ID)',
    run(_argument, state) {
      const sessions = listSessions(state.config.home, { cwd: state.config.cwd, limit: 10 });
      if (sessions.length === 0) {
        const problem = sessionsUnavailable(state.config.home);
        state.print(problem ? `  No sessions can be listed or saved: ${problem}.` : '  No saved sessions in this folder yet.');
        return;
      }
      for (const session of sessions) {
        const current = session.id === state.runtime.sessionId ? ' (this one)' : '';
        state.print(`  ${sanitizeLine(session.id)}  ${state.dim(`${session.messageCount} message${session.messageCount === 1 ? '' : 's'}`)}  ${cutToWidth(sanitizeLine(session.title), 60)}${current}`);
      }
    },
  },
  {
    name: '/resume',
    usage: '/resume [id]',
    summary: 'go on with another saved session (a picker without an id)',
    run: async (argument, state) => (await import('./resume-command.ts')).resumeCommand(argument, state),
  },
  {
    name: '/clear',
    usage: '/clear',
    summary: 'start a new session with the same settings',
    run(_argument, state) {
      state.runtime.clear();
      state.print(state.dim('  New session. The earlier one is saved (see /sessions).'));
    },
  },
  {
    name: '/model',
    usage: '/model [name]',
    summary: "switch the model; no name lists the server's models",
    run: (argument, state) => modelCommand(argument, state),
  },
  {
    name: '/think',
    usage: '/think [on|off|budget N]',
    summary: 'thinking for hybrid Qwen3 models',
    run: (argument, state) => thinkCommand(argument, state),
  },
  {
    name: '/mcp',
    usage: '/mcp',
    summary: 'MCP servers: status, tools, prompts, resources, last error',
    run: (_argument, state) => showMcpServers(state),
  },
  {
    name: '/hooks',
    usage: '/hooks [trust]',
    summary: "hooks: what runs at each event, from which file, last run; trust the project's",
    run: (argument, state) => hooksCommand(argument, state),
  },
  {
    name: '/sandbox',
    usage: '/sandbox',
    summary: 'how commands are fenced: files, network, processes',
    async run(_argument, state) {
      const sandbox = state.runtime.sandbox;
      if (!sandbox) return state.print('  Commands run without a sandbox.');
      const { describeSandbox } = await import('../../sandbox/describe-sandbox.ts');
      for (const line of describeSandbox(sandbox.state, state.config.cwd)) state.print(`  ${sanitizeLine(line)}`);
    },
  },
  {
    name: '/instructions',
    usage: '/instructions',
    summary: 'the AGENTS.md instructions in the system prompt',
    run: (_argument, state) => showInstructions(state),
  },
  {
    name: '/skills',
    usage: '/skills',
    summary: 'the skills, and whose they are',
    run: async (_argument, state) => (await import('./skills-command.ts')).skillsCommand(state),
  },
  {
    name: '/memory',
    usage: '/memory [add TEXT]',
    summary: 'instruction files; add a fact',
    run: async (argument, state) => (await import('./memory-command.ts')).memoryCommand(argument, state),
  },
  {
    name: '/init',
    usage: '/init',
    summary: 'the model writes AGENTS.md',
    run: async (_argument, state) => (await import('./init-command.ts')).initCommand(state),
  },
  {
    name: '/thinking',
    usage: '/thinking',
    summary: "switch the model's reasoning between shown whole and one line",
    run(_argument, state) {
      state.thinking = state.thinking === 'whole' ? 'summary' : 'whole';
      state.print(
        state.thinking === 'whole'
          ? '  Reasoning is shown whole as it streams.'
          : '  Reasoning is shown as one line (thought for …); /thinking again to see it whole.',
      );
    },
  },
  {
    name: '/last',
    usage: '/last',
    summary: "the full output of the last turn's tool calls",
    run(_argument, state) {
      for (const line of fullToolOutput(state.lastToolCalls, state.dim)) state.print(line);
    },
  },
  {
    name: '/todo',
    usage: '/todo',
    summary: "the model's todo list for the current work",
    run(_argument, state) {
      for (const line of todoReport(state.runtime.todo.items, state.colour, Math.max(40, (process.stdout.columns || 100) - 1))) state.print(line);
    },
  },
  {
    name: '/undo',
    usage: '/undo',
    summary: "reverse the last turn's file changes",
    run: async (_argument, state) => (await import('./checkpoint-commands.ts')).undoCommand(state),
  },
  {
    name: '/redo',
    usage: '/redo',
    summary: 'take back the last /undo',
    run: async (_argument, state) => (await import('./checkpoint-commands.ts')).redoCommand(state),
  },
  {
    name: '/rewind',
    usage: '/rewind [turn]',
    summary: 'restore files and/or the conversation to before a turn (also Esc Esc)',
    run: async (argument, state) => (await import('./checkpoint-commands.ts')).rewindCommand(argument, state),
  },
  {
    name: '/export',
    usage: '/export [file]',
    summary: 'write the session as Markdown (keys redacted) to a workspace file',
    run: async (argument, state) => (await import('./export-command.ts')).exportCommand(argument, state),
  },
  {
    name: '/copy',
    usage: '/copy',
    summary: 'put the last answer on the clipboard (OSC 52, where the terminal allows it)',
    run: async (_argument, state) => (await import('./copy-command.ts')).copyCommand(state),
  },
  {
    name: '/exit',
    usage: '/exit',
    summary: 'quit (also: exit, quit, Ctrl-D)',
    run: () => 'exit',
  },
];

/**
 * What /help prints at `width` columns (undefined: a pipe, nothing wrapped): the commands and the
 * keys, their descriptions in one column.
 */
export function helpLines(
  width: number | undefined,
  dim: (text: string) => string = (text) => text,
  custom: readonly { usage: string; summary: string }[] = [],
  notes: readonly string[] = [],
): string[] {
  // One name column for the commands and the keys, so both lists line up.
  const [commands = [], customRows = [], keys = [], status = []] = helpSections(
    [COMMANDS.map((command) => [command.usage, command.summary] as const), custom.map((command) => [command.usage, command.summary] as const), KEYS, STATUS],
    width,
    dim,
  );
  const wrapped = (text: string) => (width === undefined ? [text] : wrapStyled(text, width - 3));
  const customHeading = "Custom commands (.sylvan/commands/ is the project's, $SYLVAN_HOME/commands/ yours, which wins on a clash):";
  const customPart = custom.length > 0 ? [...wrapped(customHeading).map((row) => `  ${row}`), ...customRows] : [];
  const notesPart = notes.flatMap((note) => wrapped(sanitizeLine(note)).map((row) => dim(`  ${row}`)));
  const quit = wrapped('Esc or Ctrl-C stops an answer; Ctrl-C twice at an empty prompt, Ctrl-D, exit or /exit quits.').map((row) => dim(`  ${row}`));
  return [...commands, ...customPart, ...notesPart, ...quit, '  Keys:', ...keys, '  Status:', ...status];
}

export const SLASH_COMMANDS: readonly string[] = COMMANDS.map((command) => command.name);

/** Each command with its one-line description, for the menu shown as `/` is typed. */
export const SLASH_COMMAND_SUMMARIES: readonly { name: string; summary: string }[] = COMMANDS.map(({ name, summary }) => ({ name, summary }));

/**
 * Runs a `/command`: a built-in one, else an MCP server's prompt (`/server:prompt …`, for a
 * configured server's name), else a custom command; a prompt's or a custom command's text comes
 * back as the turn to send. A built-in always wins. Unknown ones get a hint, never an error.
 */
export async function runSlashCommand(line: string, state: ReplState): Promise<SlashOutcome> {
  const [name = '', ...rest] = line.split(/\s+/);
  const command = COMMANDS.find((candidate) => candidate.name === name.toLowerCase());
  if (command) return command.run(rest.join(' '), state);
  const promptCall = parsePromptCall(line, state.runtime.mcp.serverNames);
  if (promptCall) {
    const send = await (await import('./mcp-prompt-command.ts')).promptMessage(promptCall, state);
    return send === undefined ? undefined : { send };
  }
  const custom = findCommand(state.customCommands, name.slice(1).toLowerCase());
  // What follows the name as typed, line breaks included.
  if (custom) return customCommandTurn(custom, line.slice(name.length).trim(), state);
  state.print(`  Unknown command ${sanitizeLine(name)}. Try /help.`);
}

async function customCommandTurn(custom: CustomCommand, argument: string, state: ReplState): Promise<CommandTurn | undefined> {
  const { prepareCommandTurn } = await import('../state/command-turn.ts');
  return prepareCommandTurn(custom, argument, {
    policy: state.approval,
    runtime: state.runtime,
    mode: state.mode,
    cannotAsk: "Sylvan's input is a pipe, so it cannot ask; rerun with --yes (or SYLVAN_YES=1) to allow it",
    interruptible: state.interruptible,
    status: state.status,
    workspaceRoot: state.config.cwd,
    secretPatterns: state.config.secretPatterns,
    provider: state.config.provider,
    model: state.runtime.model,
    print: state.print,
    colour: state.colour,
  });
}
