import { estimateCost } from '../model/model-info.ts';
import { formatUsage } from './render.ts';
import type { ReplState } from './repl.ts';

interface SlashCommand {
  name: string;
  usage: string;
  summary: string;
  run(argument: string, state: ReplState): Promise<'exit' | void> | 'exit' | void;
}

const COMMANDS: SlashCommand[] = [
  {
    name: '/help',
    usage: '/help',
    summary: 'this list',
    run(_argument, state) {
      for (const command of COMMANDS) state.print(`  ${command.usage.padEnd(22)} ${state.dim(command.summary)}`);
      state.print(state.dim('  Ctrl-C stops an answer; Ctrl-C at an empty prompt, Ctrl-D, exit or /exit quits.'));
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
    summary: 'show and reset the "always" answers',
    run(_argument, state) {
      const always = [...state.approval.always];
      if (always.length === 0) {
        state.print('  No tool is always-approved; you are asked before each file write.');
        return;
      }
      state.approval.always.clear();
      state.print(`  Always-approved this session: ${always.join(', ')}. Reset: you will be asked again.`);
    },
  },
  {
    name: '/usage',
    usage: '/usage',
    summary: 'tokens used this session, and the estimated cost',
    run(_argument, state) {
      const usage = state.sessionUsage;
      state.print(`  ${formatUsage(usage)} · ${usage.cachedInputTokens.toLocaleString('en-US')} cached`);
      const cost = estimateCost(state.config.model, usage);
      if (cost !== undefined) state.print(`  ≈ $${cost.toFixed(4)} at ${state.config.model} list prices`);
    },
  },
  {
    name: '/exit',
    usage: '/exit',
    summary: 'quit (also: exit, quit, Ctrl-D)',
    run: () => 'exit',
  },
];

export const SLASH_COMMANDS: readonly string[] = COMMANDS.map((command) => command.name);

/** Runs a `/command`; unknown ones get a hint, never an error. */
export async function runSlashCommand(line: string, state: ReplState): Promise<'exit' | void> {
  const [name = '', ...rest] = line.split(/\s+/);
  const command = COMMANDS.find((candidate) => candidate.name === name.toLowerCase());
  if (!command) {
    state.print(`  Unknown command ${name}. Try /help.`);
    return;
  }
  return command.run(rest.join(' '), state);
}
