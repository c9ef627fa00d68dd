import type { Config } from '../../config/config.ts';
import type { LoadedCommands } from '../../prompt-files/custom-command.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import type { LineReader } from '../input/line-reader-contract.ts';
import type { Output } from '../render/render.ts';

export interface ReplOptions {
  config: Config;
  reader: LineReader;
  output: Output;
  /** Starts loading the runtime; called once, right after the first prompt is drawn. */
  loadRuntime: () => Promise<Runtime>;
  /** Subscribe to Ctrl-C while a turn runs (SIGINT); returns the unsubscribe. */
  onInterrupt: (handler: () => void) => () => void;
  /** Saves a line the user typed at the prompt (input history across runs). */
  rememberLine?: (line: string) => void;
  /** Input is a pipe, not a terminal: approvals are never read from it (denied unless --yes). */
  pipedInput?: boolean;
  /** The custom commands read at start: `/name` runs one. */
  customCommands?: LoadedCommands;
  /** Millisecond clock for "a second Ctrl-C within a second". */
  now?: () => number;
}
