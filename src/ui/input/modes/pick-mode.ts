import { sanitizeLine } from '../../../shared/text/sanitize.ts';
import { FilterList } from '../filter-list.ts';
import type { AreaContent } from '../input-area.ts';
import type { Key } from '../keys.ts';
import type { PickRequest } from '../line-reader-contract.ts';
import type { KeyMode } from './key-mode.ts';
import type { SharedInput } from './shared-input.ts';

/** A `pick` list being answered (the session picker): typing narrows it, Enter picks, Esc cancels. */
export class PickMode implements KeyMode {
  private readonly list: FilterList;

  constructor(
    private readonly shared: SharedInput,
    private readonly request: PickRequest,
    readonly resolve: (index: number | undefined) => void,
    private readonly hooks: { draw(): void; done(): void },
  ) {
    this.list = new FilterList(request);
  }

  handle(key: Key): boolean {
    const outcome = this.list.handle(key);
    if (outcome === undefined) {
      this.hooks.draw();
      return true;
    }
    const chosen = outcome === 'picked' ? this.list.chosen : undefined;
    const answer = chosen === undefined ? '(cancelled)' : sanitizeLine(this.request.items[chosen]!.title);
    const { area, display } = this.shared;
    area.draw({ prompt: this.request.prompt, text: answer, cursor: answer.length, display, below: [] });
    area.leave();
    this.hooks.done();
    this.shared.unstash();
    this.resolve(chosen);
    return true;
  }

  render(): AreaContent {
    const { area, display, dim } = this.shared;
    const below = this.list.rows(area.columns() - 1, dim);
    return { prompt: this.request.prompt, text: this.list.query.text, cursor: this.list.query.cursor, display, below };
  }
}
