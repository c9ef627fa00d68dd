import type { AreaContent } from '../input-area.ts';
import type { Key } from '../keys.ts';

/**
 * One way the line editor takes keys (a message prompt, Ctrl-R, a one-key menu, a picker, typing
 * during a turn). The editor hands each key to the mode on top and draws what that mode renders.
 */
export interface KeyMode {
  /** Takes one key; false when the key is not this mode's and the mode under it takes it. */
  handle(key: Key): boolean;
  /** What the input area shows while this mode is on top; nothing when something else draws it. */
  render(): AreaContent | undefined;
}
