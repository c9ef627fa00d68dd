import type { LanguageModel, ToolSet } from 'ai';
import { buildInstructions } from '../agent/instructions/instructions.ts';
import { offeringOnly, PLAN_MODE_INSTRUCTIONS, planModeToolNames } from '../agent/instructions/plan-mode.ts';
import type { RuntimeMcp } from '../mcp/runtime-mcp.ts';
import type { ToolSpecLookup } from '../tools/tool-spec.ts';
import { withSecretsScrubbed } from '../tools/with-secrets-scrubbed.ts';

export interface OfferedToolsOptions {
  workspaceRoot: string;
  builtIn: ToolSet;
  mcp: RuntimeMcp;
  /** Every key Sylvan holds: scrubbed from what the MCP servers' tools return. */
  secrets: () => readonly string[];
  /** What each tool declared: the system prompt and plan mode read it. */
  specOf: ToolSpecLookup;
  /** AGENTS.md and the like, as a section of the system prompt. */
  projectInstructions: string;
  /** How long the first refresh waits for the MCP servers (print mode, whose one question cannot wait for "the next turn"), or undefined. */
  firstWaitMs: number | undefined;
}

/**
 * The tools a request offers and the system prompt that names them. MCP servers come and go
 * between turns: `refresh` follows them, and says when the set changed (the fitter's reserve follows).
 */
export class OfferedTools {
  private current: ToolSet;
  private names: string[];
  private instructionsNow: string;
  private firstWaitMs: number | undefined;

  constructor(private options: OfferedToolsOptions) {
    this.current = options.builtIn;
    this.names = Object.keys(options.builtIn);
    this.instructionsNow = this.instructionsFor(this.names);
    this.firstWaitMs = options.firstWaitMs;
  }

  get tools(): ToolSet {
    return this.current;
  }

  get instructions(): string {
    return this.instructionsNow;
  }

  /** The built-in tools, then the MCP servers' ready now (a built-in name wins). */
  get allNames(): string[] {
    const builtIn = this.options.builtIn;
    return [...Object.keys(builtIn), ...Object.keys(this.options.mcp.tools()).filter((name) => !(name in builtIn))];
  }

  /** Takes in the MCP servers' tools as they are now; resolves true when the set changed. */
  async refresh(): Promise<boolean> {
    if (this.firstWaitMs !== undefined) {
      const waitMs = this.firstWaitMs;
      this.firstWaitMs = undefined;
      await this.options.mcp.settled(waitMs);
    }
    const next = { ...withSecretsScrubbed(this.options.mcp.tools(), this.options.secrets), ...this.options.builtIn };
    const names = Object.keys(next);
    if (names.join('\n') === this.names.join('\n')) return false;
    this.current = next;
    this.names = names;
    this.instructionsNow = this.instructionsFor(names);
    return true;
  }

  /** Replaces the instruction files' section (`/memory reload`): the next request's system prompt carries it. */
  setProjectInstructions(text: string): void {
    this.options.projectInstructions = text;
    this.instructionsNow = this.instructionsFor(this.names);
  }

  /** Plan mode: the same tools (so a refused call is answered by the policy), fewer offered, and the planning instructions. */
  planTurn(answer: LanguageModel): { model: LanguageModel; instructions: string } {
    const offered = planModeToolNames(this.current, this.options.specOf);
    return { model: offeringOnly(answer, offered), instructions: this.instructionsFor(offered) + PLAN_MODE_INSTRUCTIONS };
  }

  private instructionsFor(toolNames: readonly string[]): string {
    const { workspaceRoot, specOf, projectInstructions } = this.options;
    return buildInstructions({ workspaceRoot, tools: toolNames.map((name) => specOf(name) ?? { name }), projectInstructions });
  }
}
