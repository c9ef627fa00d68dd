import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { ApprovalDecision, ApprovalPolicy, ApprovalRequest, ApprovalVerdict } from '../agent/loop/turn-options.ts';
import { planModeRefusal } from '../tools/approval-mode.ts';
import { builtInSpec } from '../tools/registry/built-in-specs.ts';
import { delegates, onlyReads, type ApprovalScope, type ToolSpec, type ToolSpecLookup } from '../tools/tool-spec.ts';
import type { ApprovalAsker, ApprovalQuestion, ModeContext, NobodyToAsk } from './approval-types.ts';

export interface ApprovalOptions {
  /** What each tool declared; a tool without a spec is asked about (or refused where nobody can be asked). */
  specs?: ToolSpecLookup;
  /** `--yes`: everything the mode allows runs without a question. */
  yes: boolean;
  /** Scope keys the user's settings approved ahead (`permissions.allow`): kept for the whole session. */
  approvedAhead?: Iterable<string>;
  modes?: ModeContext;
  /** How this front end asks, or that it cannot. */
  asker: ApprovalAsker | NobodyToAsk;
}

const ASK_MODE: ModeContext = { mode: () => 'ask', workspaceRoot: process.cwd() };

/** The kinds of call auto-edit applies without asking (those of files inside the workspace). */
const FILE_CHANGES: ReadonlySet<string> = new Set(['write', 'edit']);

/**
 * The one approval policy: the mode, the tool's declared kind and scope, `--yes`, the settings'
 * `permissions.allow` and the session's "always" answers, decided the same way for the REPL, print
 * mode and a pipe, which differ only in how they ask (or that they cannot). It fails closed: a tool
 * that does not declare a read-only kind is asked about, and refused in plan mode.
 */
export class Approval implements ApprovalPolicy {
  /** Scope keys answered "always" in this session: what `/approvals` resets. */
  readonly always = new Set<string>();
  readonly approvedAhead: ReadonlySet<string>;
  private readonly specs: ToolSpecLookup;
  private readonly modes: ModeContext;

  constructor(private readonly options: ApprovalOptions) {
    this.specs = options.specs ?? builtInSpec;
    this.approvedAhead = new Set(options.approvedAhead ?? []);
    this.modes = options.modes ?? ASK_MODE;
  }

  /**
   * Refused (plan mode and a tool not known to only read, even with --yes or a hook's allow; nobody
   * to ask, `unanswered`), allowed (auto-edit and a file change inside the workspace, --yes,
   * approved ahead, "always", a PreToolUse hook's allow), `not-needed` (a read-only tool without a
   * scope, a tool the settings trust) or `ask` (also whenever a hook says ask).
   */
  decide(toolName: string, input: unknown, hook?: 'allow' | 'ask'): ApprovalVerdict {
    const spec = this.specs(toolName);
    const mode = this.modes.mode();
    if (mode === 'plan' && !onlyReads(spec) && !delegates(spec)) return { deny: planModeRefusal(toolName) };
    const question = (): ApprovalVerdict => ('cannotAsk' in this.options.asker ? { deny: this.options.asker.cannotAsk(toolName), unanswered: true } : 'ask');
    if (hook === 'ask') return question();
    const scope = scopeOf(toolName, input, spec);
    if (!scope || hook === 'allow') return scope ? 'allow' : 'not-needed';
    if (mode === 'auto-edit' && FILE_CHANGES.has(spec?.kind ?? '') && staysInside(this.modes.workspaceRoot, input)) return 'allow';
    if (this.options.yes || this.approvedAhead.has(scope.key) || this.always.has(scope.key)) return 'allow';
    return question();
  }

  async ask(request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalDecision> {
    const asker = this.options.asker;
    if ('cannotAsk' in asker) return { approved: false, reason: 'No one is there to approve this call.' };
    const spec = this.specs(request.toolName);
    const question: ApprovalQuestion = {
      request,
      scope: scopeOf(request.toolName, request.input, spec) ?? unknownToolScope(request.toolName),
      ...(spec && { kind: spec.kind }),
    };
    const { always, ...answer } = await asker.ask(question, signal);
    if (always && answer.approved) this.always.add(question.scope.key);
    return answer;
  }
}

/** What a call must be approved for, or undefined when it needs no approval. Fails closed. */
function scopeOf(toolName: string, input: unknown, spec: ToolSpec | undefined): ApprovalScope | undefined {
  if (spec?.scope) return spec.scope(input);
  if (spec?.trusted || onlyReads(spec) || delegates(spec)) return undefined;
  return unknownToolScope(toolName);
}

/** A changing tool that declared no scope: "always" covers that tool alone. */
const unknownToolScope = (toolName: string): ApprovalScope => ({ kind: 'tool', key: `tool:${toolName}`, alwaysLabel: `${toolName} this session` });

/** Lexical: the file tools still refuse links and anything else that leads out. */
function staysInside(workspaceRoot: string, input: unknown): boolean {
  const given = (input as { path?: unknown } | null)?.path;
  if (typeof given !== 'string' || given === '' || given.includes('\0') || given.startsWith('~')) return false;
  const inside = relative(resolve(workspaceRoot), resolve(workspaceRoot, given));
  return inside !== '' && !isAbsolute(inside) && inside.split(sep)[0] !== '..';
}
