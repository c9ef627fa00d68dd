import type { AgentCatalogue } from '../agents/agent-catalogue.ts';
import { SubagentRunner } from '../agents/subagent-runner.ts';
import type { ToolProgressChannel } from '../agent/loop/tool-progress-channel.ts';
import type { Config } from '../config/config.ts';
import type { ToolSpecLookup } from '../tools/tool-spec.ts';
import type { LiveSession } from './live-session.ts';
import type { ModelChoice } from './model-choice.ts';

/** What the subagents share with the session that starts them. */
export interface SubagentWiring {
  catalogue: AgentCatalogue;
  specOf: ToolSpecLookup;
  models: ModelChoice;
  progress: ToolProgressChannel;
  session: LiveSession;
  /** A line told with the next turn's notices. */
  notice: (message: string) => void;
}

/**
 * The `task` tool's runner: subagents run under the session's limits, their usage counts in the
 * session's and their messages go to its transcript.
 */
export function wireSubagents(config: Config, wiring: SubagentWiring): SubagentRunner {
  const { specOf, models, progress, session } = wiring;
  return new SubagentRunner({
    catalogue: wiring.catalogue,
    specOf,
    workspaceRoot: config.cwd,
    modelFor: (name) => models.answerFor(name),
    limits: {
      maxSteps: config.maxSteps,
      tokenBudget: config.tokenBudget,
      stepTimeoutMs: config.timeoutSeconds * 1000,
      toolTimeoutMs: config.toolTimeoutSeconds * 1000,
      maxRetries: config.provider === 'mock' ? config.maxRetries : 0,
    },
    toolTimeoutOf: (toolName) => specOf(toolName)?.timeoutMs?.(config.toolTimeoutSeconds * 1000),
    report: progress.subagent,
    onUsage: (usage, model) => session.addStepUsage(usage, model),
    onMessage: (link, message) => session.writer.appendSubagentMessage(link, message),
    notice: wiring.notice,
  });
}
