import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { streamText, type ModelMessage, type ToolSet } from 'ai';
import { ContextFitter, type Eviction } from '../src/agent/context/context-fitter.ts';
import { buildInstructions } from '../src/agent/instructions/instructions.ts';
import { instructionsSection, loadInstructionFiles } from '../src/agent/instructions/project-instructions.ts';
import { skillsSection } from '../src/agent/instructions/skills-section.ts';
import { findSkills } from '../src/tools/skill/skill-catalogue.ts';
import { builtInSpec } from '../src/tools/registry/built-in-specs.ts';
import { tokenUsageOf } from '../src/shared/token-usage.ts';
import { loadConfig } from '../src/config/load-config.ts';
import type { CacheMode } from '../src/config/config.ts';
import { DASHSCOPE_CACHE_RATES } from '../src/models/model-catalogue.ts';
import { createTools } from '../src/tools/registry/create-tools.ts';
import { DashScopeCache } from '../test/helpers/dashscope-cache.ts';
import { startDashScopeServer, text } from '../test/helpers/dashscope-server.ts';
import { TurnFactory } from './history-fixture.ts';
import type { Section } from './report.ts';
import { formatCount, formatRatio } from './statistics.ts';
import { loadModelFactory } from '../src/providers/load-model-factory.ts';

const TURNS = 60;
/** Small enough that the bench's growing conversation fills it about a third of the way in. */
const WINDOW_TOKENS = 32_768;
/** A model DashScope's explicit cache takes (see `EXPLICIT_CACHE_MODELS`). */
const MODEL = 'qwen-plus';
/** Virtual time: a model step and its tools, and the user reading and typing between turns; all well inside 5 minutes. */
const STEP_MS = 8_000;
const TURN_GAP_MS = 45_000;
const BILLED_TARGET = 0.3;
const HIT_TARGET = 0.85;

interface SessionBill {
  requests: number;
  /** Prompt tokens in all. */
  input: number;
  cached: number;
  created: number;
  /** Input billed in units of the input price: fresh 100%, created 125%, explicit hits 10%. */
  billed: number;
  /** No markers: the best case DashScope's implicit cache could give (hits at 20%), which it does not promise. */
  billedImplicitBestCase: number;
  /** From the first request that left a turn out: prompt and hit tokens. */
  inputOnceFull: number;
  cachedOnceFull: number;
  firstFullRequest: number | undefined;
}

/**
 * The bench's growing conversation (60 tool-using turns from `TurnFactory`), replayed step by step
 * through `ContextFitter` and `createModel` against a loopback DashScope server whose usage is billed
 * by `DashScopeCache` (the documented rules: prefixes at the markers, 20-block look-back, 5-minute
 * validity, creation at 125%, hits at 10%). Once with SYLVAN_CACHE=explicit and the chunked fitter,
 * once with SYLVAN_CACHE=off and the turn-by-turn fitter Sylvan had before: the second is the
 * uncached bill the first is held to.
 */
export async function measureContextCache(): Promise<Section> {
  const workspace = mkdtempSync(join(tmpdir(), 'sylvan-bench-cache-'));
  try {
    // As a session with skills and remembered facts has them: in the system prompt once, the same every request.
    withSkillsAndMemory(workspace);
    const skills = findSkills({ workspaceRoot: workspace, sylvanHome: join(workspace, '.sylvan-home') }).skills;
    const tools: ToolSet = createTools({ workspaceRoot: workspace, weather: 'sample', secretPatterns: [], toolTimeoutMs: 60_000, skills });
    const projectInstructions = instructionsSection(loadInstructionFiles(workspace, join(workspace, '.sylvan-home')).files) + skillsSection(skills);
    const instructions = buildInstructions({ workspaceRoot: workspace, tools: Object.keys(tools).map((name) => builtInSpec(name) ?? { name }), projectInstructions });
    const cached = await replay({ cache: 'explicit', eviction: 'chunks', tools, instructions, workspace });
    const uncached = await replay({ cache: 'off', eviction: 'turns', tools, instructions, workspace });
    const billedRatio = cached.billed / uncached.input;
    const hitShare = cached.inputOnceFull > 0 ? cached.cachedOnceFull / cached.inputOnceFull : 0;
    return {
      title: `DashScope context cache: ${TURNS} tool-using turns in a ${formatCount(WINDOW_TOKENS)}-token window, on a loopback server billing by the cache rules`,
      rows: [
        {
          measure: 'billed input, explicit cache + chunked fitter / no markers + old fitter',
          result: `${formatRatio(billedRatio)} (${formatCount(Math.round(cached.billed))} / ${formatCount(uncached.input)} token-prices)`,
          target: `<= ${BILLED_TARGET}x`,
          passed: billedRatio <= BILLED_TARGET,
        },
        {
          measure: 'input served from cache once the window is full',
          result: `${Math.round(hitShare * 1000) / 10}% (from request ${(cached.firstFullRequest ?? 0) + 1} of ${cached.requests})`,
          target: `>= ${HIT_TARGET * 100}%`,
          passed: hitShare >= HIT_TARGET,
        },
        { measure: 'input served from cache, whole session', result: `${Math.round((cached.cached / cached.input) * 1000) / 10}%` },
        {
          measure: 'input written to the cache (billed at 125%)',
          result: `${formatCount(cached.created)} of ${formatCount(cached.input)} tokens`,
        },
        {
          measure: 'old fitter, no markers, implicit cache at its best / uncached',
          result: formatRatio(uncached.billedImplicitBestCase / uncached.input),
        },
      ],
      notes: [
        `the same ${TURNS} turns and ${cached.requests} requests both times; prices in units of the input price (hits ${DASHSCOPE_CACHE_RATES.explicitHit * 100}%, creation ${DASHSCOPE_CACHE_RATES.creation * 100}%, implicit hits ${DASHSCOPE_CACHE_RATES.implicitHit * 100}%).`,
        'the implicit row assumes every shared prefix of the last 5 minutes hits, which DashScope does not promise; the target is against the uncached bill.',
      ],
    };
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

/** Ten skills and an AGENTS.md with a few remembered facts, as `/memory add` leaves them. */
function withSkillsAndMemory(workspace: string): void {
  for (let index = 0; index < 10; index++) {
    const folder = join(workspace, '.claude', 'skills', `skill-${index}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'SKILL.md'), `---\nname: skill-${index}\ndescription: Does the ${index}th kind of task the team repeats, step by step, with its checks\n---\nThe steps.`);
  }
  writeFileSync(join(workspace, 'AGENTS.md'), '# Notes\n\nBuild: npm run build. Test: npm test.\n- Use pnpm, not npm\n- Answer in British English\n');
}

async function replay(options: { cache: CacheMode; eviction: Eviction; tools: ToolSet; instructions: string; workspace: string }): Promise<SessionBill> {
  const clock = { now: 0 };
  const simulator = new DashScopeCache(() => clock.now);
  const billed: ReturnType<DashScopeCache['bill']>[] = [];
  const server = await startDashScopeServer({
    respond: (request) => {
      const bill = simulator.bill(request.body ?? {});
      billed.push(bill);
      return text('好的。', { usage: { ...bill, completionTokens: 3 } });
    },
  });
  try {
    const config = loadConfig([], { DASHSCOPE_API_KEY: 'k', DASHSCOPE_BASE_URL: server.baseURL, SYLVAN_MODEL: MODEL, SYLVAN_CACHE: options.cache, SYLVAN_HOME: options.workspace }, options.workspace);
    if ('help' in config || 'version' in config) throw new Error('loadConfig answered help/version');
    const model = (await loadModelFactory(config))(config);
    const fitter = new ContextFitter(WINDOW_TOKENS, options.instructions, options.tools, { eviction: options.eviction });
    const factory = new TurnFactory(23);
    const history: ModelMessage[] = [];
    const bill: SessionBill = {
      requests: 0, input: 0, cached: 0, created: 0, billed: 0, billedImplicitBestCase: 0, inputOnceFull: 0, cachedOnceFull: 0, firstFullRequest: undefined,
    };
    for (let turnIndex = 0; turnIndex < TURNS; turnIndex++) {
      const turn = factory.next();
      history.push(turn.user);
      clock.now += TURN_GAP_MS;
      for (const step of turn.steps) {
        const fitted = fitter.fit(history);
        clock.now += STEP_MS;
        const result = streamText({ model, instructions: options.instructions, tools: options.tools, messages: fitted.messages, maxRetries: 0 });
        for await (const part of result.stream) {
          if (part.type === 'error') throw part.error instanceof Error ? part.error : new Error(String(part.error));
          if (part.type !== 'finish-step') continue;
          const usage = tokenUsageOf(part.usage);
          fitter.observe(fitted.messages, usage);
          const fresh = usage.inputTokens - usage.cachedInputTokens - (usage.cacheCreationInputTokens ?? 0);
          const implicit = billed.at(-1)?.implicitCachedTokens ?? 0;
          bill.input += usage.inputTokens;
          bill.cached += usage.cachedInputTokens;
          bill.created += usage.cacheCreationInputTokens ?? 0;
          bill.billed += fresh + (usage.cacheCreationInputTokens ?? 0) * DASHSCOPE_CACHE_RATES.creation + usage.cachedInputTokens * DASHSCOPE_CACHE_RATES.explicitHit;
          bill.billedImplicitBestCase += usage.inputTokens - implicit + implicit * DASHSCOPE_CACHE_RATES.implicitHit;
          if (bill.firstFullRequest === undefined && fitted.messages[0] !== history[0]) bill.firstFullRequest = bill.requests;
          if (bill.firstFullRequest !== undefined) {
            bill.inputOnceFull += usage.inputTokens;
            bill.cachedOnceFull += usage.cachedInputTokens;
          }
          bill.requests++;
        }
        history.push(...step);
      }
    }
    if (bill.requests !== billed.length) throw new Error(`${billed.length} requests reached the server, ${bill.requests} were counted`);
    if (simulator.tooManyMarkers > 0) throw new Error(`${simulator.tooManyMarkers} requests carried more than 4 cache markers`);
    return bill;
  } finally {
    await server.close();
  }
}
