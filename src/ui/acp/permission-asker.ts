import type { AgentContext, PermissionOption, RequestPermissionResponse, ToolKind as AcpToolKind } from '@agentclientprotocol/sdk';
import type { ApprovalAnswer, ApprovalAsker, ApprovalQuestion } from '../../approval/approval-types.ts';
import type { CallDescription } from '../../tools/tool-spec.ts';
import { redactDeep } from './redact-deep.ts';

const ALLOW_ONCE = 'allow_once';
const ALLOW_ALWAYS = 'allow_always';
const REJECT_ONCE = 'reject_once';

export interface PermissionAskerOptions {
  client: AgentContext;
  sessionId: string;
  /** The summary and preview the terminal shows, for the request's title and content. */
  describe: (question: ApprovalQuestion) => Promise<CallDescription>;
  kindOf: (question: ApprovalQuestion) => AcpToolKind;
  /** Scrubs every key Sylvan holds from what the editor is shown. */
  redact: (text: string) => string;
}

/**
 * Asks the editor through `session/request_permission`: allow once, allow always (offered with the
 * scope Sylvan's "always" has, and not for a call asked every time), reject once. A cancelled
 * request, a turn stopped meanwhile or a client that fails to answer is a no.
 */
export class PermissionAsker implements ApprovalAsker {
  constructor(private readonly options: PermissionAskerOptions) {}

  async ask(question: ApprovalQuestion, signal?: AbortSignal): Promise<ApprovalAnswer> {
    const { client, sessionId } = this.options;
    const description = await this.options.describe(question).catch(() => undefined);
    const options: PermissionOption[] = [{ optionId: ALLOW_ONCE, name: 'Allow once', kind: 'allow_once' }];
    if (!question.scope.oneTime) options.push({ optionId: ALLOW_ALWAYS, name: this.options.redact(`Always allow ${question.scope.alwaysLabel}`), kind: 'allow_always' });
    options.push({ optionId: REJECT_ONCE, name: 'Reject', kind: 'reject_once' });
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
            ...(description && { content: [{ type: 'content' as const, content: { type: 'text' as const, text: description.preview } }] }),
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
    if (chosen === ALLOW_ALWAYS && !question.scope.oneTime) return { approved: true, always: true };
    return { approved: false, reason: 'The user rejected this call.' };
  }
}
