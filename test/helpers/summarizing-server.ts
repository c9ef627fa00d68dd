import { SUMMARIZE_REQUEST } from '../../src/agent/context/compact.ts';
import { contentText } from './chat-requests.ts';
import {
  startDashScopeServer,
  text,
  type DashScopeServer,
  type RecordedRequest,
  type Responder,
  type ScriptedUsage,
} from './dashscope-server.ts';

export interface SummarizingServerOptions {
  /** Answers the turns' requests; `index` counts turn requests only, as if no summary was asked for. */
  respond: Responder;
  /** The text of the answer to a summary request (/compact or the automatic one). */
  summarize: (request: RecordedRequest) => string;
  /** Usage reported with each summary; default: the server's estimate. */
  summaryUsage?: ScriptedUsage;
}

/** True for the request /compact sends: its last message asks for the summary. */
export function isCompactionRequest(request: RecordedRequest): boolean {
  const last = request.body?.messages?.at(-1);
  return last?.role === 'user' && contentText(last.content).startsWith(SUMMARIZE_REQUEST.slice(0, 40));
}

/**
 * The loopback DashScope server, with summary requests answered by `summarize` and every other
 * request by `respond`, so a test scripts its turns without counting the compactions in between.
 */
export async function startSummarizingServer(options: SummarizingServerOptions): Promise<DashScopeServer> {
  let turnRequests = 0;
  return startDashScopeServer({
    respond: (request) =>
      isCompactionRequest(request)
        ? text(options.summarize(request), { usage: options.summaryUsage })
        : options.respond(request, turnRequests++),
  });
}
