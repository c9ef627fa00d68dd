import type { AgentContext, PermissionOption, RequestPermissionResponse, ToolKind as AcpToolKind } from '@agentclientprotocol/sdk';
import type { ApprovalAnswer, ApprovalAsker, ApprovalQuestion } from '../../approval/approval-types.ts';
import type { CallDescription } from '../../tools/tool-spec.ts';
import { redactDeep } from './redact-deep.ts';

const ALLOW_ONCE = 'allow_once';
const ALLOW_ALWAYS = 'allow_always';
const REJECT_ONCE = 'reject_once';
const ALLOW_WITH_NETWORK = 'allow_once_with_network';

/** The terminal's answer key for "run with network", named in the preview; over ACP it is an option. */
const TERMINAL_NETWORK_HINT = '([w] runs it with network)';

export interface PermissionAskerOptions {
  client: AgentContext;
  sessionId: string;
  /** The summary and preview the terminal shows, for the request's title and content. */
  describe: (question: ApprovalQuestion) => Promise<CallDescription>;
  kindOf: (question: ApprovalQuestion) => AcpToolKind;
  /** Scrubs every key Sylvan holds from what the editor is shown. */
  redact: (text: string) => string;
  /** "Allow once, with network" for a command the sandbox keeps off the network: offered when it applies, granted to that call only. */
  network?: { offered(question: ApprovalQuestion): boolean; grant(request: ApprovalQuestion['request']): void };
}

/**
 * Asks the editor through `session/request_permission`: allow once, allow always (offered with the
 * scope Sylvan's "always" has, and not for a call asked every time), allow once with network (a
 * sandboxed command, as the terminal's "w"), reject once. A cancelled
 * request, a turn stopped meanwhile or a client that fails to answer is a no.
 */
export class PermissionAsker implements ApprovalAsker {
  constructor(private readonly options: PermissionAskerOptions) {}

  async ask(question: ApprovalQuestion, signal?: AbortSignal): Promise<ApprovalAnswer> {
    const { client, sessionId } = this.options;
    const description = await this.options.describe(question).catch(() => undefined);
    const options: PermissionOption[] = [{ optionId: ALLOW_ONCE, name: 'Allow once', kind: 'allow_once' }];
    if (!question.scope.oneTime) options.push({ optionId: ALLOW_ALWAYS, name: this.options.redact(`Always allow ${question.scope.alwaysLabel}`), kind: 'allow_always' });
    const withNetwork = this.options.network?.offered(question) === true;
    if (withNetwork) options.push({ optionId: ALLOW_WITH_NETWORK, name: 'Allow once, with network', kind: 'allow_once' });
    options.push({ optionId: REJECT_ONCE, name: 'Reject', kind: 'reject_once' });
    const preview = description?.preview.replace(TERMINAL_NETWORK_HINT, withNetwork ? '("Allow once, with network" lets it reach the network)' : '');
    let response: RequestPermissionResponse;
    try {
      response = await client.request(
        'session/request_permission',
        {
          sessionId,
          options,
          toolCall: redactDeep({
            toolCallId: question.request.toolCallId,
            title: description?.summary ?? question.request.toolName,
            kind: this.options.kindOf(question),
            status: 'pending',
            rawInput: question.request.input as Record<string, unknown>,
            ...(preview !== undefined && { content: [{ type: 'content' as const, content: { type: 'text' as const, text: preview } }] }),
          }, this.options.redact),
        },
        { cancellationSignal: signal },
      );
    } catch {
      return { approved: false, reason: 'The editor did not answer the approval request; nothing was run.' };
    }
    if (signal?.aborted || response.outcome.outcome === 'cancelled') return { approved: false, reason: 'The user dismissed the question or stopped the turn; nothing was run.' };
    const chosen = response.outcome.optionId;
    if (chosen === ALLOW_ONCE) return { approved: true };
    if (chosen === ALLOW_WITH_NETWORK && withNetwork) {
      this.options.network?.grant(question.request);
      return { approved: true };
    }
    if (chosen === ALLOW_ALWAYS && !question.scope.oneTime) return { approved: true, always: true };
    return { approved: false, reason: 'The user rejected this call.' };
  }
}
