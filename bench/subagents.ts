import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { LanguageModel, ModelMessage, ToolSet } from 'ai';
import { agentLoop } from '../src/agent/loop/agent-loop.ts';
import { Conversation } from '../src/agent/context/conversation.ts';
import { loadAgentCatalogue } from '../src/agents/agent-catalogue.ts';
import { SubagentRunner } from '../src/agents/subagent-runner.ts';
import { Approval } from '../src/approval/approval-policy.ts';
import { printModeCannotAsk } from '../src/approval/nobody-to-ask.ts';
import type { Config } from '../src/config/config.ts';
import { loadConfig } from '../src/config/load-config.ts';
import { providerContext } from '../src/providers/create-model.ts';
import { loadModelFactory } from '../src/providers/load-model-factory.ts';
import { createTools } from '../src/tools/registry/create-tools.ts';
import { DashScopeCache } from '../test/helpers/dashscope-cache.ts';
import { startDashScopeServer, text, toolCalls, type RecordedRequest, type Reply } from '../test/helpers/dashscope-server.ts';
import { TurnFactory } from './history-fixture.ts';
import type { Section } from './report.ts';
import { formatMs, formatRatio } from './statistics.ts';

const FORK_HISTORY_TURNS = 12;
const CACHE_TARGET = 0.9;
const CONCURRENCY_TARGET = 1.3;
/** Each subagent's two model steps take this long on the loopback server (a slow, a middling and a quick one). */
const STEP_DELAYS_MS = [400, 300, 200];

const contentText = (content: unknown): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((part) => String((part as { text?: string }).text ?? '')).join('') : '';
const lastUser = (request: RecordedRequest): string => contentText(request.body?.messages?.findLast((message) => message.role === 'user')?.content);

/**
 * Subagents: (1) a fork's first request against a loopback DashScope billing by the explicit cache
 * rules (the share of the parent's last prompt served from the cache), through the real provider
 * and its cache markers; (2) three subagents of different speeds started together, against the
 * slowest of them run alone.
 */
export async function measureSubagents(): Promise<Section> {
  const workspace = mkdtempSync(join(tmpdir(), 'sylvan-bench-subagents-'));
  try {
    writeFileSync(join(workspace, 'notes.txt'), 'notes\n');
    const fork = await forkCacheShare(workspace);
    const together = await concurrentAgainstAlone(workspace);
    return {
      title: 'Subagents on a loopback DashScope server',
      rows: [
        {
          measure: "fork's first request: prompt served from the explicit cache / parent's last prompt",
          result: `${Math.round(fork.share * 1000) / 10}% (${fork.cached} / ${fork.parentPrompt} tokens)`,
          target: `>= ${CACHE_TARGET * 100}%`,
          passed: fork.share >= CACHE_TARGET,
        },
        {
          measure: '3 concurrent subagents / the slowest alone',
          result: `${formatRatio(together.ratio)} (${formatMs(together.concurrentMs)} / ${formatMs(together.slowestAloneMs)})`,
          target: `<= ${CONCURRENCY_TARGET}x`,
          passed: together.ratio <= CONCURRENCY_TARGET,
        },
      ],
      notes: [
        `the fork follows ${FORK_HISTORY_TURNS} tool-using turns; usage billed by the cache rules the context-cache row uses.`,
        `each subagent makes two model steps (a read_file call, then its answer), each held ${STEP_DELAYS_MS.join(' / ')} ms by the server.`,
      ],
    };
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

async function forkCacheShare(workspace: string): Promise<{ share: number; cached: number; parentPrompt: number }> {
  const simulator = new DashScopeCache(() => 0);
  const bills: { request: RecordedRequest; prompt: number; cached: number }[] = [];
  const server = await startDashScopeServer({
    respond: (request) => {
      const bill = simulator.bill(request.body ?? {});
      bills.push({ request, prompt: bill.promptTokens, cached: bill.cachedTokens ?? 0 });
      const usage = { ...bill, completionTokens: 5 };
      if (/You are a fork/.test(lastUser(request))) return text('Fork done.', { usage });
      if (request.body?.messages?.at(-1)?.role === 'tool') return text('Done.', { usage });
      return toolCalls([{ id: 'call_fork', name: 'task', arguments: { description: 'carry on', prompt: 'carry on', subagent_type: 'general', fork: true } }], { usage });
    },
  });
  try {
    const { config, model } = await dashscope(server.baseURL, workspace);
    const history: ModelMessage[] = [];
    const factory = new TurnFactory(7);
    for (let index = 0; index < FORK_HISTORY_TURNS; index++) {
      const turn = factory.next();
      history.push(turn.user, ...turn.steps.flat());
    }
    await runParent(config, model, workspace, new Conversation(history));
    const forkAt = bills.findIndex((bill) => /You are a fork/.test(lastUser(bill.request)));
    const parent = bills[forkAt - 1];
    if (forkAt < 1 || !parent) throw new Error('the fork sent no request');
    const share = bills[forkAt]!.cached / parent.prompt;
    return { share, cached: bills[forkAt]!.cached, parentPrompt: parent.prompt };
  } finally {
    await server.close();
  }
}

async function concurrentAgainstAlone(workspace: string): Promise<{ ratio: number; concurrentMs: number; slowestAloneMs: number }> {
  const server = await startDashScopeServer({
    respond: async (request): Promise<Reply> => {
      const which = Number(/agent (\d)/.exec(contentText(request.body?.messages?.find((message) => message.role === 'user')?.content))?.[1] ?? 0);
      await delay(STEP_DELAYS_MS[which] ?? 100);
      if (request.body?.messages?.at(-1)?.role === 'tool') return text(`agent ${which} found it.`);
      return toolCalls([{ name: 'read_file', arguments: { path: 'notes.txt' } }]);
    },
  });
  try {
    const { config, model } = await dashscope(server.baseURL, workspace);
    const { runner } = parentTurn(config, model, workspace, new Conversation());
    const run = (which: number) =>
      runner.run(
        { description: `agent ${which}`, prompt: `agent ${which}: read notes.txt`, subagent_type: 'explore' },
        { toolCallId: `call_${which}`, abortSignal: new AbortController().signal, messages: [] },
      );
    const timed = async (work: () => Promise<unknown>) => {
      const started = performance.now();
      await work();
      return performance.now() - started;
    };
    const alone = [];
    for (const which of [0, 1, 2]) alone.push(await timed(() => run(which)));
    const concurrentMs = await timed(() => Promise.all([0, 1, 2].map(run)));
    const slowestAloneMs = Math.max(...alone);
    return { ratio: concurrentMs / slowestAloneMs, concurrentMs, slowestAloneMs };
  } finally {
    await server.close();
  }
}

async function dashscope(baseURL: string, workspace: string): Promise<{ config: Config; model: LanguageModel }> {
  const env = { DASHSCOPE_API_KEY: 'k', DASHSCOPE_BASE_URL: baseURL, SYLVAN_MODEL: 'qwen-plus', SYLVAN_CACHE: 'explicit', SYLVAN_HOME: workspace, SYLVAN_MAX_RETRIES: '0' };
  const config = loadConfig([], env, workspace);
  if ('help' in config || 'version' in config) throw new Error('loadConfig answered help/version');
  return { config, model: (await loadModelFactory(config))(config) };
}

/** A runner and the tools of a parent turn, as the runtime wires them (no session file, no checkpoints). */
function parentTurn(config: Config, model: LanguageModel, workspace: string, conversation: Conversation) {
  const approval = new Approval({ yes: true, asker: printModeCannotAsk });
  const limits = { maxSteps: 10, tokenBudget: 10_000_000, stepTimeoutMs: 60_000, toolTimeoutMs: 60_000, maxRetries: 0 };
  const runner = new SubagentRunner({
    catalogue: loadAgentCatalogue(workspace, workspace),
    specOf: () => undefined,
    workspaceRoot: workspace,
    modelFor: () => model,
    limits,
    toolTimeoutOf: () => undefined,
    report: () => {},
    onUsage: () => {},
  });
  const tools: ToolSet = createTools({ workspaceRoot: workspace, weather: 'sample', secretPatterns: [], toolTimeoutMs: 60_000, subagents: { agents: runner.agents, run: runner.run } });
  const instructions = 'You are a coding agent.';
  runner.beginTurn({ approval, plan: false, model, plainModel: model, modelName: config.model, instructions, tools, provider: providerContext(config), conversation });
  return { runner, tools, instructions, approval, limits };
}

async function runParent(config: Config, model: LanguageModel, workspace: string, conversation: Conversation): Promise<void> {
  const { tools, instructions, approval, limits } = parentTurn(config, model, workspace, conversation);
  const loop = agentLoop({
    model,
    tools,
    instructions,
    conversation,
    userMessage: 'delegate the rest',
    limits: { maxSteps: 5, tokenBudget: limits.tokenBudget, maxIdenticalCalls: 3 },
    stepTimeoutMs: limits.stepTimeoutMs,
    toolTimeoutMs: limits.toolTimeoutMs,
    maxRetries: 0,
    abortSignal: new AbortController().signal,
    approval,
    provider: providerContext(config),
  });
  for await (const event of loop) {
    if (event.type === 'turn-end' && event.stopReason !== 'completed') throw new Error(`the parent turn ended ${event.stopReason}: ${event.message}`);
  }
}
