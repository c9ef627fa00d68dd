import type { AreaContent } from '../input-area.ts';
import type { Key } from '../keys.ts';
import type { Choice, ChoiceResult } from '../line-reader-contract.ts';
import { OneKeyMenu } from '../one-key-menu.ts';
import type { KeyMode } from './key-mode.ts';
import type { SharedInput } from './shared-input.ts';

/** A one-key menu being answered: every key is the menu's until it gives an answer. */
export class ChoiceMode implements KeyMode {
  private readonly menu: OneKeyMenu;

  constructor(
    private readonly shared: SharedInput,
    question: string,
    choices: readonly Choice[],
    readonly resolve: (result: ChoiceResult) => void,
    private readonly hooks: { draw(): void; done(): void },
  ) {
    this.menu = new OneKeyMenu(question, choices);
  }

  handle(key: Key): boolean {
    const answer = this.menu.handle(key);
    if (answer === undefined) return true;
    if (answer === 'moved') {
      this.hooks.draw();
      return true;
    }
    // The question stays on screen with the answer after it; the menu goes.
    const { area, display } = this.shared;
    area.draw({ prompt: this.menu.prompt, text: answer.shown, cursor: answer.shown.length, display, below: [] });
    area.leave();
    this.hooks.done();
    this.shared.unstash();
    this.resolve(answer.result);
    return true;
  }

  render(): AreaContent {
    return { prompt: this.menu.prompt, text: '', cursor: 0, display: this.shared.display, below: this.menu.rows(this.shared.dim) };
  }
}
