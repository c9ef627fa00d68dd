/**
 * The one table of provider errors, sorted by what they mean: every kind has one retry rule and one
 * line of advice, whichever server sent it (DashScope, Zhipu, Moonshot, DeepSeek, SiliconFlow,
 * Volcengine Ark, OpenAI and its many imitators, vLLM, SGLang, llama.cpp, Ollama) and wherever it
 * arrived — an HTTP status with a JSON body, a JSON error body inside a 200, or an error frame
 * inside a 200 stream. The meaning is read from the documented codes first, then from the message
 * (English and Chinese), and only then from generic types and the HTTP status: a 429 that says
 * "recharge" is a balance problem, a 500 that says "context size exceeded" is a request that will
 * overflow again. To teach Sylvan a new error, add its code or wording to `MEANINGS`.
 */

import { digits } from '../../shared/text/count-text.ts';

/** What an error said about itself, from whichever place it arrived. */
export interface Problem {
  /** The HTTP status; 200 when the error came inside a successful response. */
  status?: number;
  /** The provider's `code` (e.g. `Arrearage`, `1113`, `ModelNotOpen`), numbers as strings. */
  code?: string;
  /** The provider's `type` (often a second spelling of the code, or a generic class). */
  type?: string;
  /** The server's own message. */
  message?: string;
  /** Set when the response was not a stream at all (see `FAULTS`). */
  fault?: FaultKind;
}

/** What the error line needs to know about where the request went. */
export interface ProviderContext {
  /** "DashScope", "the OpenAI-compatible server", "the mock model". */
  label: string;
  model: string;
  baseURL?: string;
  /** The variable that holds the key, named in the advice ("Check DASHSCOPE_API_KEY in .env"). */
  keyVariable?: string;
  /** The variable that sets the base URL. */
  baseUrlVariable?: string;
  /** The context window Sylvan assumed for the model (SYLVAN_CONTEXT_TOKENS or the catalogue), named when the context is too long. */
  contextTokens?: number;
  /** The request was /compact's summary: a context too long for it is not helped by /compact. */
  compacting?: boolean;
}

/** Where the request went and how many times it was sent, for the wording. */
export interface LineContext extends ProviderContext {
  attempts: number;
}

export type ErrorKind =
  /** Balance, quota, arrears, a paid tier the account lacks. */
  | 'account'
  | 'context-too-long'
  | 'bad-key'
  | 'model-not-found'
  /** The model exists but is not enabled (activated, purchased) for the account. */
  | 'model-access'
  | 'moderation'
  | 'throttled'
  | 'server'
  | 'bad-request'
  /** A 404 that says nothing more: the model name or the base URL. */
  | 'not-found'
  /** An error frame inside a 200 whose meaning is unknown. */
  | 'in-stream'
  | 'not-a-stream'
  | 'other';

/** Only these are worth sending again: the same request may succeed a moment later. */
const RETRIED: ReadonlySet<ErrorKind> = new Set(['throttled', 'server']);

interface Meaning {
  kind: ErrorKind;
  /** Documented codes and types, matched whole against `code` and `type`. */
  codes?: RegExp;
  /** The message, English and Chinese. */
  says?: RegExp;
}

/**
 * Specific meanings, checked codes first (all rows), then messages (all rows); the first match wins.
 * Numeric codes: Zhipu's 1xxx (1113 balance, 1261 prompt too long, 1301 moderation, 1302/1303/1305
 * rate limits, 1211 no such model, 1000–1004 authentication), SiliconFlow's 30001/30011 (balance).
 */
const MEANINGS: Meaning[] = [
  {
    kind: 'moderation',
    codes: /^(data_inspection_failed|DataInspectionFailed|content_filter|content_policy_violation|sensitive_words_detected|1301)$/i,
    says: /inappropriate content|content (filter|management policy)|considered high risk|不安全或敏感|敏感(内容|信息|词)|内容(安全|审核)|违规内容/i,
  },
  {
    kind: 'context-too-long',
    codes: /^(context_length_exceeded|exceed_context_size_error|context_window_exceeded|model_context_window_exceeded|string_above_max_length|1261)$/i,
    says:
      /context (length|size|window)|maximum (context|input|allowed) length|exceeds? the (maximum|available) (context|input)|range of input length|model token limit|too many (input )?tokens|(prompt|input) is too long|max_seq_len|上下文.{0,8}(超|过长|限制|上限)|超(过|出).{0,8}(上下文|最大(输入)?(长度|token))|(输入|提示词|prompt)\s*(过长|超长|长度超)/i,
  },
  {
    kind: 'account',
    codes:
      /^(insufficient_quota|insufficient_balance|Arrearage|AccessDenied\.Unpurchased|AllocationQuota\.FreeTierOnly|AccountOverdueError|exceeded_current_quota_error|billing_hard_limit_reached|payment_required|1113|30001|30011)$/i,
    says:
      /in good standing|insufficient (balance|quota|credit|funds)|balance is insufficient|paid balance|exceeded your current quota|overdue|recharge|top up|arrear|billing details|payment required|余额不足|欠费|充值|资源包|额度(已)?(用尽|不足|耗尽)/i,
  },
  {
    kind: 'throttled',
    codes: /^(Throttling(\.[\w.]+)?|rate_limit_exceeded|rate_limit_error|rate_limit_reached_error|RateLimitExceeded(\.[\w.]+)?|AccountRateLimitExceeded|ModelAccountTpmRateLimitExceeded|1302|1303|1305)$/i,
    says: /rate.?limit|too many requests|requests? per (minute|second)|请求(过于)?频繁|(调用|请求)频率|并发(数)?(过高|超)|限流/i,
  },
  {
    kind: 'model-not-found',
    codes: /^(model_not_found|ModelNotFound|model_not_exist|InvalidEndpointOrModel\.NotFound|UnsupportedModel|1211)$/i,
    says: /model\b.*\b(does not exist|not found|not exist)|no such model|unknown model|模型不存在/i,
  },
  {
    kind: 'model-access',
    codes: /^(ModelNotOpen|AccessDenied|model_access_denied|permission_denied|PermissionDenied)$/i,
    says: /has not activated the model|activate the model|access to model denied|not (enabled|activated|subscribed) for|模型(未开通|未激活)|未开通|无权(访问|使用)/i,
  },
  {
    kind: 'bad-key',
    codes: /^(invalid_api_key|InvalidApiKey|AuthenticationError|authentication_error|1000|1001|1002|1003|1004)$/i,
    says: /invalid api.?key|incorrect api key|api key (is )?(invalid|incorrect|not valid)|authentication fail|身份验证失败|令牌(已)?(过期|无效)|api.?key\s*(无效|错误)/i,
  },
];

/** Generic types and wordings: they say "the server failed" only when nothing above said more. */
const SERVER_FAULT = {
  codes: /^(server_error|internal_error|InternalError(\.[\w.]+)?|InternalServerError|ServiceUnavailable|service_unavailable|overloaded_error|engine_overloaded_error)$/i,
  says: /internal server error|server had an error|overloaded|temporarily unavailable|服务(器)?(繁忙|暂时不可用|内部错误)|系统(繁忙|错误)/i,
};

/** The meaning of a problem: documented codes, then the message, then generic types, then the HTTP status. */
function kindOf(problem: Problem): ErrorKind {
  const codes = [problem.code, problem.type].filter((value): value is string => typeof value === 'string' && value !== '');
  const message = problem.message ?? '';
  for (const meaning of MEANINGS) if (meaning.codes && codes.some((code) => meaning.codes!.test(code.trim()))) return meaning.kind;
  for (const meaning of MEANINGS) if (meaning.says?.test(message)) return meaning.kind;
  const status = problem.status;
  // A 4xx is the client's fault whatever its type says (DashScope's `InternalError.Algo.InvalidParameter` is a 400).
  const clientStatus = status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 409;
  if (!clientStatus && (codes.some((code) => SERVER_FAULT.codes.test(code.trim())) || SERVER_FAULT.says.test(message))) return 'server';
  if (status === undefined || status < 400) return 'in-stream';
  if (status === 401) return 'bad-key';
  if (status === 402) return 'account';
  if (status === 403) return 'model-access';
  if (status === 404) return 'not-found';
  if (status === 413) return 'context-too-long';
  if (status === 429) return 'throttled';
  if (status >= 500 || status === 408 || status === 409) return 'server';
  return 'bad-request';
}

/**
 * A response that was not the stream it should have been, each with its own line; only a stream
 * cut short before anything was shown is sent again. One cut after text arrives in the stream as
 * a frame of Sylvan's own (`ownFaultCode`), so the text before it is kept on screen.
 */
export type FaultKind =
  | 'empty-body'
  | 'html-body'
  | 'json-body'
  | 'not-a-stream'
  | 'empty-stream'
  | 'line-too-long'
  | 'too-large'
  /** The connection broke before anything was shown. */
  | 'cut-early'
  /** The body ended cleanly with nothing shown and no end marker (finish reason, `[DONE]`). */
  | 'ended-early'
  | 'cut-mid-answer'
  | 'ended-mid-answer';

const RETRIED_FAULTS: ReadonlySet<FaultKind> = new Set(['cut-early', 'ended-early']);

const OWN_FAULT_CODES = { 'cut-mid-answer': 'sylvan_stream_cut', 'ended-mid-answer': 'sylvan_stream_unfinished' } as const;

/** The code of the error frame Sylvan ends a cut-short stream with. */
export const ownFaultCode = (kind: keyof typeof OWN_FAULT_CODES): string => OWN_FAULT_CODES[kind];

const faultOfCode = (code: string | undefined): FaultKind | undefined =>
  (Object.keys(OWN_FAULT_CODES) as Array<keyof typeof OWN_FAULT_CODES>).find((kind) => OWN_FAULT_CODES[kind] === code);

/** What a cut-short answer's line says after what happened: the step is not kept (only whole steps are). */
const NOT_KEPT = 'what arrived is shown but not kept for the model. Say "continue" to have it answer again.';

const FAULTS: Record<FaultKind, (where: string, context: LineContext) => string> = {
  'empty-body': (where) => `${where} answered 200 with an empty body instead of a stream. Try again; if it repeats, check the base URL.`,
  'html-body': (where, context) =>
    `${where} answered 200 with an HTML page instead of a stream (a proxy or login page?). Check ${context.baseUrlVariable ?? 'the base URL'}.`,
  'json-body': (where) => `${where} answered 200 with a JSON document instead of a stream. Check that the base URL points at a chat-completions API.`,
  'not-a-stream': (where, context) =>
    `${where} answered 200 with something that is not an event stream. Check ${context.baseUrlVariable ?? 'the base URL'}.`,
  'empty-stream': (where) => `${where} sent a stream with no answer in it (no data before [DONE]). Try again.`,
  'line-too-long': (where) => `${where} sent a stream line longer than 10 MB; Sylvan stopped reading it. Try again.`,
  'too-large': (where) => `${where} sent more than 100 MB for one answer; Sylvan stopped reading it. Try again.`,
  'cut-early': (where, context) =>
    `The connection to ${where} was cut off before any answer arrived${tries(context)}. Try again; if it repeats, check your network or proxy.`,
  'ended-early': (where, context) => `${where} ended its stream before any answer arrived (no finish reason, no [DONE])${tries(context)}. Try again.`,
  'cut-mid-answer': (where) => `The connection to ${where} was cut off before the answer ended; ${NOT_KEPT}`,
  'ended-mid-answer': (where) => `${where} ended its stream before the answer ended (no finish reason, no [DONE]); ${NOT_KEPT}`,
};

/** The server's words on one line, whole up to about 300 characters, cut at a word boundary. */
export function clipMessage(message: string | undefined, limit = 300): string | undefined {
  if (message === undefined) return undefined;
  const flat = message.replace(/\s+/g, ' ').trim();
  if (flat === '') return undefined;
  if (flat.length <= limit) return flat;
  const cut = flat.slice(0, limit);
  const space = cut.lastIndexOf(' ');
  return `${(space > limit * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, '')}…`;
}

const tries = (context: LineContext): string => (context.attempts > 1 ? ` after ${context.attempts} tries` : '');
/** The server's own message, once, in brackets. */
const said = (problem: Problem): string => {
  const message = clipMessage(problem.message);
  return message ? ` (${message})` : '';
};
const shownStatus = (problem: Problem): string | undefined =>
  problem.status !== undefined && problem.status !== 200 ? String(problem.status) : undefined;
/** The code (else the type) to name; one that only repeats the status (llama.cpp's `code: 400`) gives way to the type. */
const shownCode = (problem: Problem): string | undefined =>
  [problem.code, problem.type].find((value) => value !== undefined && value !== shownStatus(problem));
/** "(429 1113)": the status and the code, never the same number twice. */
const statusAndCode = (problem: Problem): string => {
  const text = [shownStatus(problem), shownCode(problem)].filter(Boolean).join(' ');
  return text ? ` (${text})` : '';
};
const says = (problem: Problem, pattern: RegExp): boolean => pattern.test(problem.message ?? '');

const LINES: Record<Exclude<ErrorKind, 'not-a-stream'>, (p: Problem, c: LineContext) => string> = {
  moderation: (p, c) => {
    const what = says(p, /output/i) ? 'answer' : 'request';
    const advice = what === 'answer' ? 'Rephrase the question.' : 'Rephrase it (or /clear if an earlier turn tripped it).';
    return `${c.label}'s content moderation blocked the ${what}${statusAndCode(p)}${said(p)}. ${advice}`;
  },
  'context-too-long': (p, c) => {
    const assumed = c.contextTokens ? `a window of ${digits(c.contextTokens)} tokens` : 'the window';
    const advice = c.compacting ? '/clear starts over.' : '/compact summarises the conversation, /clear starts over.';
    return `The conversation is too long for ${c.model}${statusAndCode(p)}${said(p)}. Sylvan assumed ${assumed} (SYLVAN_CONTEXT_TOKENS); ${advice}`;
  },
  account: (p, c) =>
    `Your account cannot use ${c.model}${statusAndCode(p)}${said(p)}. Top up or enable it in the provider's console, or pick another model with /model.`,
  throttled: (p, c) => `${c.label} is rate-limiting requests${statusAndCode(p)}${tries(c)}${said(p)}. Wait a minute and try again.`,
  'model-not-found': (p, c) => {
    const advice = says(p, /try pulling it/i)
      ? `Run \`ollama pull ${c.model}\` on the server, or pick another model with /model.`
      : 'Pick one with /model (no name lists them) or --model.';
    return `${c.label} has no model "${c.model}"${statusAndCode(p)}${said(p)}. ${advice}`;
  },
  'model-access': (p, c) =>
    `Your account cannot use ${c.model}${statusAndCode(p)}${said(p)}. Activate (enable) the model for your account in the provider's console, or pick another model with /model.`,
  'bad-key': (p, c) => {
    const variable = c.keyVariable ? `Check ${c.keyVariable} in your environment or .env.` : 'Check the API key.';
    const status = shownStatus(p);
    return `${c.label} rejected the API key${status ? ` (${status})` : ''}${said(p)}. ${variable}`;
  },
  'not-found': (p, c) => {
    const variable = c.baseUrlVariable ? ` and ${c.baseUrlVariable}` : '';
    return `${c.baseURL ?? c.label} answered 404 Not Found${said(p)}. Check the model name "${c.model}"${variable}.`;
  },
  server: (p, c) => {
    const status = shownStatus(p);
    const what = status ? `failed with ${status}${shownCode(p) ? ` ${shownCode(p)}` : ''}` : `reported a server error${statusAndCode(p)}`;
    return `${c.label} ${what}${tries(c)}${said(p)}. This is on the server's side; try again in a moment.`;
  },
  'bad-request': (p, c) => `${c.label} refused the request${statusAndCode(p)}${said(p)}.`,
  'in-stream': (p, c) => `${c.label} reported an error in its answer${statusAndCode(p)}${said(p)}. Try again.`,
  other: (p, c) => `${c.label} answered${statusAndCode(p)}${tries(c)}${said(p)}.`,
};

/** The table's row for a problem: its kind and whether to send the request again. */
export function classifyProblem(problem: Problem): { kind: ErrorKind; retry: boolean } {
  if (problem.fault) return { kind: 'not-a-stream', retry: RETRIED_FAULTS.has(problem.fault) };
  const kind = kindOf(problem);
  return { kind, retry: RETRIED.has(kind) };
}

/** The one line the user reads for a problem: what happened, the server's words once, what to do. */
export function problemLine(problem: Problem, context: LineContext): string {
  if (problem.fault) return FAULTS[problem.fault](context.baseURL ?? context.label, context);
  const kind = kindOf(problem);
  return LINES[kind === 'not-a-stream' ? 'other' : kind](problem, context);
}

/**
 * Reads every shape servers use: `{"error": {...}}` (DashScope, OpenAI, Zhipu, llama.cpp, SGLang's
 * stream frames), `{"code", "message", "request_id"}` (DashScope's native API), vLLM's and SGLang's
 * top-level `{"object": "error", "message", "type", "code"}`, SiliconFlow's `{"code", "message",
 * "data"}` and `{"error": "text"}` (Ollama's own API). Undefined when the body says nothing we can read.
 */
export function problemFromBody(status: number | undefined, body: string): Problem | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  return problemFromValue(status, parsed);
}

export function problemFromValue(status: number | undefined, value: unknown): Problem | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const inner = record.error;
  const text = (candidate: unknown): string | undefined => (typeof candidate === 'string' && candidate !== '' ? candidate : undefined);
  if (typeof inner === 'string') return { status, message: inner };
  const source = inner !== null && typeof inner === 'object' ? (inner as Record<string, unknown>) : record;
  const problem: Problem = {
    status,
    code: text(source.code) ?? (typeof source.code === 'number' ? String(source.code) : undefined),
    type: text(source.type),
    message: text(source.message),
  };
  if (inner === undefined && problem.code === undefined && problem.message === undefined) return undefined;
  const own = faultOfCode(problem.code);
  return own ? { status: 200, fault: own } : problem;
}
