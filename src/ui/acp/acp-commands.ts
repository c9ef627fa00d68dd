import type { AvailableCommand } from '@agentclientprotocol/sdk';
import { Chalk } from 'chalk';
import { findCommand, type LoadedCommands } from '../../prompt-files/custom-command.ts';
import type { CommandTurn } from '../state/command-turn.ts';
import { sanitizeLine } from '../../shared/text/sanitize.ts';
import type { AcpSession } from './acp-session.ts';

const UNDO: AvailableCommand = { name: 'undo', description: "Reverse the files the last turn changed (Sylvan's checkpoints)" };

/** What the editor offers after `/`: undo, and the custom commands of the user and the project. */
export function availableCommands(loaded: LoadedCommands | undefined): AvailableCommand[] {
  const custom = (loaded?.commands ?? []).map((command) => ({
    name: command.name,
    description: sanitizeLine(command.description),
    ...(command.argumentHint && { input: { hint: sanitizeLine(command.argumentHint) } }),
  }));
  return [UNDO, ...custom];
}

/** What a prompt that starts with `/` does: undo now (its lines said), send a command's text, or send the prompt as typed. */
export type SlashOutcome = { said: string } | { turn: CommandTurn } | { notSent: true } | undefined;

/**
 * `/undo` reverses the last turn's changes (a file changed since is kept, not overwritten); a custom
 * command is expanded as in the terminal, its `` !`…` `` lines asked about through the editor.
 * Anything else is not a command Sylvan knows: undefined, and the prompt goes to the model as typed.
 */
export async function runSlashCommand(text: string, session: AcpSession, loaded: LoadedCommands | undefined, signal: AbortSignal, tell: (line: string) => void): Promise<SlashOutcome> {
  const match = /^\/(\S+)\s*([\s\S]*)$/.exec(text.trim());
  if (!match) return undefined;
  const name = match[1]!.toLowerCase();
  if (name === 'undo') return { said: await undo(session) };
  const command = findCommand(loaded, name);
  if (!command) return undefined;
  const { prepareCommandTurn } = await import('../state/command-turn.ts');
  const { runtime } = session;
  const turn = await prepareCommandTurn(command, match[2]!.trim(), {
    policy: session.approval,
    runtime,
    mode: session.mode,
    cannotAsk: 'the editor did not answer',
    interruptible: (work) => work(signal),
    workspaceRoot: session.workspaceRoot,
    secretPatterns: session.secretPatterns,
    provider: session.provider,
    model: runtime.model,
    print: tell,
    colour: new Chalk({ level: 0 }),
  });
  return turn ? { turn } : { notSent: true };
}

async function undo(session: AcpSession): Promise<string> {
  const checkpoints = session.runtime.checkpoints;
  await checkpoints.settled();
  const turn = checkpoints.undoable;
  if (!turn) return 'Nothing to undo: no turn of this session changed a file that a checkpoint still holds.';
  // A file changed since that turn is the user's newer work: kept, and said so.
  const lines = await checkpoints.undo(turn, async () => false);
  const said = lines.map((line) => `- ${line.path}: ${line.outcome}${line.reason ? ` (${line.reason})` : ''}`);
  return [`Undid turn ${turn.id} "${turn.words}":`, ...said].join('\n');
}
