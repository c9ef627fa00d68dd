import type { TurnRecord } from '../../checkpoints/checkpoint-types.ts';
import type { Observed } from '../../checkpoints/file-state.ts';
import type { ConflictResolver, Restoring, RestoreLine } from '../../checkpoints/restore.ts';
import { unifiedDiff } from '../../tools/files/unified-diff.ts';
import { askOneKey, KEEP_OR_OVERWRITE } from '../state/one-key-question.ts';
import { formatPreview } from '../approval/preview-view.ts';
import type { ReplState } from '../state/repl-state.ts';
import { sanitizeLine } from '../../shared/text/sanitize.ts';

const FILES_LISTED = 3;

const RESTORE_CHOICES = [
  { key: 'f', label: 'Files' },
  { key: 'c', label: 'Conversation' },
  { key: 'b', label: 'Both' },
];

/** How long a restore waits for open recordings without a word, then after saying so. */
const QUIET_WAIT_MS = 500;
const TOLD_WAIT_MS = 15_000;

/**
 * Waits until every change begun is recorded — a command stopped with Esc ends for the turn at
 * once, but may take seconds more to die and be snapshotted — so a restore sees the turn the user
 * just saw; bounded, so a command that never ends cannot hang the prompt.
 */
async function recordingsFinished(state: ReplState, command: string): Promise<boolean> {
  const checkpoints = state.runtime.checkpoints;
  if (await checkpoints.settled(QUIET_WAIT_MS)) return true;
  state.print(state.dim('  Waiting for a stopped command to end and its changes to be recorded…'));
  if (await checkpoints.settled(TOLD_WAIT_MS)) return true;
  state.print(`  A stopped command has not ended yet, so its changes are not recorded and nothing was changed. Try ${command} again in a moment.`);
  return false;
}

type Checkpoints = ReplState['runtime']['checkpoints'];

/** What `/undo` and `/redo` each do; they differ only in the turn they take and the words they say. */
interface Reversal {
  command: '/undo' | '/redo';
  turn: (checkpoints: Checkpoints) => TurnRecord | undefined;
  nothing: string;
  doing: string;
  apply: (checkpoints: Checkpoints, turn: TurnRecord, ask: ConflictResolver) => Promise<RestoreLine[]>;
  after?: string;
}

const UNDO: Reversal = {
  command: '/undo',
  turn: (checkpoints) => checkpoints.undoable,
  nothing: 'Nothing to undo: no turn of this session changed a file that a checkpoint still holds.',
  doing: 'Undoing',
  apply: (checkpoints, turn, ask) => checkpoints.undo(turn, ask),
  after: '/redo takes this back.',
};

const REDO: Reversal = {
  command: '/redo',
  turn: (checkpoints) => checkpoints.redoable,
  nothing: 'Nothing to redo: /redo takes back an /undo, until a later turn changes files.',
  doing: 'Redoing',
  apply: (checkpoints, turn, ask) => checkpoints.redo(turn, ask),
};

async function reverse(state: ReplState, reversal: Reversal): Promise<void> {
  const checkpoints = state.runtime.checkpoints;
  if (!(await recordingsFinished(state, reversal.command))) return;
  const turn = reversal.turn(checkpoints);
  if (!turn) {
    state.print(`  ${reversal.nothing}`);
    return;
  }
  state.print(`  ${reversal.doing} turn ${turn.id} ${quoted(turn)}:`);
  printLines(state, await reversal.apply(checkpoints, turn, askBeforeOverwriting(state)));
  if (reversal.after) state.print(state.dim(`  ${reversal.after}`));
}

/** `/undo`: reverses the last turn's changes, newest first, and says what happened to each file. */
export const undoCommand = (state: ReplState): Promise<void> => reverse(state, UNDO);

/** `/redo`: makes the changes of the last undone turn again. */
export const redoCommand = (state: ReplState): Promise<void> => reverse(state, REDO);

/**
 * `/rewind [N]`: lists the session's turns, then restores to before the chosen one — its files
 * (every later change undone, newest first), the conversation (the history cut back to before its
 * message, saved for --continue), or both.
 */
export async function rewindCommand(argument: string, state: ReplState): Promise<void> {
  const checkpoints = state.runtime.checkpoints;
  if (!(await recordingsFinished(state, '/rewind'))) return;
  const turns = checkpoints.turns;
  if (turns.length === 0) {
    state.print('  Nothing to rewind yet: no turn in this session.');
    return;
  }
  let choice = argument.trim();
  if (choice === '') {
    state.print('  Turns of this session:');
    for (const turn of turns) state.print(`  ${String(turn.id).padStart(3)}. ${timeOf(turn)}  ${sanitizeLine(turn.words)}  ${state.dim(`· ${filesOf(turn)}`)}`);
    choice = (await state.ask('  Rewind to before which turn? (number, Enter to cancel) › ')) ?? '';
  }
  const turn = turns.find((candidate) => String(candidate.id) === choice.trim());
  if (!turn) {
    if (choice.trim() !== '') state.print(`  There is no turn ${sanitizeLine(choice.trim())}; nothing was changed.`);
    return;
  }
  const point = checkpoints.conversationPoint(turn, state.runtime.conversation.messages);
  const later = turns.filter((candidate) => candidate.id >= turn.id);
  const withFiles = later.filter((candidate) => candidate.changes.length > 0 && !candidate.undone);
  let what: 'files' | 'conversation' | 'both';
  if (point === undefined) {
    state.print(state.dim('  The conversation was summarised (/compact) since that turn, so only files can be rewound.'));
    what = 'files';
  } else {
    const answer = await askOneKey(state, '  Restore what?', RESTORE_CHOICES);
    const picked = ({ f: 'files', c: 'conversation', b: 'both' } as const)[answer as 'f' | 'c' | 'b'];
    if (!picked) {
      state.print('  Nothing was changed.');
      return;
    }
    what = picked;
  }
  if (what !== 'conversation') {
    if (later.some((candidate) => candidate.dropped)) {
      state.print(state.dim('  Some of these turns\' checkpoints were dropped to stay within the limits; their changes stay as they are.'));
    }
    if (withFiles.length === 0) state.print('  No file changes to undo from there.');
    for (const candidate of withFiles.reverse()) {
      state.print(`  Undoing turn ${candidate.id} ${quoted(candidate)}:`);
      printLines(state, await checkpoints.undo(candidate, askBeforeOverwriting(state)));
    }
  }
  if (what !== 'files' && point !== undefined) {
    state.runtime.rewindConversation(point);
    await checkpoints.forgetFrom(turn);
    state.print(`  The conversation is back to before turn ${turn.id}: the next message continues from there.`);
    if (what === 'conversation' && withFiles.length > 0) state.print(state.dim('  Files keep the changes of those turns.'));
  }
}

/** Asks before overwriting a path changed since the checkpoint, showing what would change. */
function askBeforeOverwriting(state: ReplState): ConflictResolver {
  return async ({ path, current, restoring }) => {
    const name = sanitizeLine(path);
    state.print(`  ${name} was changed after Sylvan's change. Putting it back would do this:`);
    const preview = await differenceOf(path, current, restoring);
    state.print(await formatPreview({ summary: '', preview, previewFormat: 'diff' }, state.colour));
    return (await askOneKey(state, `  Overwrite ${name}?`, KEEP_OR_OVERWRITE)) === 'y';
  };
}

async function differenceOf(path: string, current: Observed, restoring: Restoring): Promise<string> {
  const textOf = (state: Observed | Restoring): string | undefined => {
    if (state.kind === 'absent') return '';
    if (state.kind === 'link') return `(a link to ${state.target})\n`;
    if (state.kind !== 'file') return undefined;
    return state.bytes.includes(0) ? undefined : state.bytes.toString('utf8');
  };
  const before = textOf(current);
  const after = textOf(restoring);
  if (before === undefined || after === undefined) return '(not text: no diff to show)';
  if (restoring.kind === 'absent') return `(the file would be removed)\n${await unifiedDiff(path, before, after, sanitizeLine)}`;
  return unifiedDiff(path, before, after, sanitizeLine);
}

function printLines(state: ReplState, lines: readonly RestoreLine[]): void {
  const said: Record<RestoreLine['outcome'], string> = {
    restored: 'restored',
    recreated: 'restored (it had been deleted)',
    removed: 'removed (it did not exist before)',
    unchanged: 'already as it was',
    kept: 'kept as it is now (you said no)',
    failed: 'could not be restored',
  };
  for (const line of lines) {
    const reason = line.reason ? `: ${sanitizeLine(line.reason)}` : '';
    const text = `    ${sanitizeLine(line.path)} ${said[line.outcome]}${reason}`;
    state.print(line.outcome === 'failed' || line.outcome === 'kept' ? state.colour.yellow(text) : text);
  }
}

function quoted(turn: TurnRecord): string {
  return `"${sanitizeLine(turn.words)}"`;
}

function timeOf(turn: TurnRecord): string {
  const date = new Date(turn.startedAt);
  return Number.isNaN(date.getTime()) ? '--:--' : `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
}

function filesOf(turn: TurnRecord): string {
  if (turn.dropped) return 'checkpoint dropped';
  const paths = [...new Set(turn.changes.map((change) => change.path))];
  if (paths.length === 0) return 'no files changed';
  const shown = paths.slice(0, FILES_LISTED).map(sanitizeLine).join(', ');
  const more = paths.length > FILES_LISTED ? ` (+${paths.length - FILES_LISTED} more)` : '';
  return `${shown}${more}${turn.undone ? ' (undone)' : ''}`;
}
