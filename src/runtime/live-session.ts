import { addUsage, emptyUsage, type TokenUsage } from '../agent/events.ts';
import { SessionCheckpoints } from '../checkpoints/session-checkpoints.ts';
import type { Config } from '../config/config.ts';
import { readGitBranch } from '../session/git-branch.ts';
import { createSession, type SessionWriter } from '../session/store.ts';
import type { ResumedHistory } from './runtime.ts';

/**
 * The session being written: its transcript, its checkpoints (keyed by the session id, so a
 * continued session finds its own again) and the provider-reported usage, including turns before
 * a resume. /clear starts another; /resume switches to a saved one.
 */
export class LiveSession {
  writer: SessionWriter;
  checkpoints: SessionCheckpoints;
  usage: TokenUsage;
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
  }

  /** Saves a request's usage and adds it to the session's. */
  addUsage(usage: TokenUsage): void {
    this.writer.appendUsage(usage);
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
  }

  /** Closes this session and goes on with a saved one. */
  switchTo(resumed: ResumedHistory): void {
    this.writer.close();
    this.writer = resumed.writer;
    this.checkpoints = this.checkpointsOf(this.writer.id);
    this.usage = resumed.usage;
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
