import { addUsage, emptyUsage, type TokenUsage } from '../shared/token-usage.ts';
import { SessionCheckpoints } from '../checkpoints/session-checkpoints.ts';
import type { Config } from '../config/config.ts';
import { readGitBranch } from '../shared/git-head.ts';
import { createSession, type SessionWriter } from '../session/session-writer.ts';
import { currencyOf, type Pricing } from '../models/model-catalogue.ts';
import type { ResumedHistory } from './runtime.ts';
import { SpendMeter } from './spend-meter.ts';

/**
 * The session being written: its transcript, its checkpoints (keyed by the session id, so a
 * continued session finds its own again) and the provider-reported usage, including turns before
 * a resume. /clear starts another; /resume switches to a saved one.
 */
export class LiveSession {
  writer: SessionWriter;
  checkpoints: SessionCheckpoints;
  usage: TokenUsage;
  /** The session's spend in money, requests and time, and the budgets it counts against. */
  readonly spend: SpendMeter;
  /** The provider's currency (CNY on DashScope's mainland endpoint) and the user's own prices. */
  readonly pricing: Pricing;
  private saveFailureTold = false;

  constructor(
    private readonly config: Config,
    private readonly secrets: string[],
    private readonly modelName: () => string,
    resumed: ResumedHistory | undefined,
  ) {
    this.writer = resumed?.writer ?? this.newWriter();
    this.checkpoints = this.checkpointsOf(this.writer.id);
    this.usage = resumed?.usage ?? emptyUsage();
    this.pricing = { currency: currencyOf(config.provider, config.baseURL), overrides: config.prices };
    this.spend = new SpendMeter({ budgets: config.budgets ?? {}, model: modelName, pricing: () => this.pricing }, resumed?.spend);
  }

  /** Saves a request made outside a turn (a summary): its usage, counted against the budgets, and its cost. */
  addUsage(usage: TokenUsage): void {
    this.save(usage, this.spend.record(usage));
  }

  /** Saves the usage of a turn's request (the turn's guard counted it already) with its cost at `model`'s price. */
  addStepUsage(usage: TokenUsage, model: string): void {
    this.save(usage, this.spend.costOf(usage, model));
  }

  private save(usage: TokenUsage, cost: { total: number; currency: string } | undefined): void {
    this.writer.appendUsage(usage, cost && { amount: cost.total, currency: cost.currency });
    this.usage = addUsage(this.usage, usage);
  }

  /** The first failure to save, told once; the conversation goes on either way. */
  takeSaveFailure(): string[] {
    if (this.saveFailureTold || this.writer.lastError === undefined) return [];
    this.saveFailureTold = true;
    return [`(sessions are not being saved: ${this.writer.lastError.message})`];
  }

  /** Closes this session and starts a new one with the same settings. */
  startNew(): void {
    this.writer.close();
    this.writer = this.newWriter();
    this.checkpoints = this.checkpointsOf(this.writer.id);
    this.usage = emptyUsage();
    this.spend.resume(undefined);
  }

  /** Closes this session and goes on with a saved one. */
  switchTo(resumed: ResumedHistory): void {
    this.writer.close();
    this.writer = resumed.writer;
    this.checkpoints = this.checkpointsOf(this.writer.id);
    this.usage = resumed.usage;
    this.spend.resume(resumed.spend);
    this.saveFailureTold = false;
  }

  private newWriter(): SessionWriter {
    const { home, cwd, provider } = this.config;
    return createSession({ home, cwd, provider, model: this.modelName(), secrets: this.secrets, branch: readGitBranch(cwd) });
  }

  private checkpointsOf(sessionId: string): SessionCheckpoints {
    const { home, cwd, secretPatterns } = this.config;
    return new SessionCheckpoints({ home, sessionId, workspaceRoot: cwd, secretPatterns, secrets: this.secrets });
  }
}
