import type { LanguageModel } from 'ai';
import { guardDeepToolInput } from '../agent/loop/deep-input-guard.ts';
import type { Config } from '../config/config.ts';
import type { ProviderContext } from '../providers/errors/provider-errors.ts';
import { providerContext } from '../providers/create-model.ts';
import type { SearchSourceLog } from '../providers/dashscope-search.ts';
import type { ModelFactory } from '../providers/load-model-factory.ts';
import type { ThinkingSetting } from '../models/thinking.ts';

/**
 * The model the turns use — its answering and compacting instances, its thinking setting, and the
 * provider's words for its errors — and another for one turn (a custom command's `model`) through
 * the same provider, key and base URL.
 */
export class ModelChoice {
  thinking: ThinkingSetting;
  private nameNow: string;
  private models: { answer: LanguageModel; compaction: LanguageModel };
  private providerNow: ProviderContext;

  constructor(
    private readonly config: Config,
    private readonly createModel: ModelFactory,
    private readonly hooks: { searchSources: SearchSourceLog | undefined; onRetry: NonNullable<Parameters<ModelFactory>[1]>['onRetry'] },
  ) {
    this.thinking = config.thinking ?? { mode: 'auto' };
    this.nameNow = config.model;
    this.models = this.modelsFor(config.model);
    this.providerNow = providerContext(config);
  }

  get name(): string {
    return this.nameNow;
  }

  get answer(): LanguageModel {
    return this.models.answer;
  }

  get compaction(): LanguageModel {
    return this.models.compaction;
  }

  get provider(): ProviderContext {
    return this.providerNow;
  }

  /** Switches to `name` for the following turns; `windowTokens` is its context window as the runtime counts it. */
  set(name: string, windowTokens: number): void {
    this.nameNow = name;
    this.models = this.modelsFor(name);
    this.providerNow = this.providerFor(name, windowTokens);
  }

  /** A model for one turn, answering as the session's does. */
  answerFor(name: string): LanguageModel {
    const { searchSources, onRetry } = this.hooks;
    return guardDeepToolInput(this.createModel({ ...this.config, model: name }, { thinking: () => this.thinking, searchSources, onRetry }));
  }

  providerFor(name: string, windowTokens: number): ProviderContext {
    return providerContext({ ...this.config, model: name, contextTokens: windowTokens });
  }

  private modelsFor(name: string): { answer: LanguageModel; compaction: LanguageModel } {
    return {
      answer: this.answerFor(name),
      compaction: guardDeepToolInput(this.createModel({ ...this.config, model: name }, { purpose: 'compaction', onRetry: this.hooks.onRetry })),
    };
  }
}
