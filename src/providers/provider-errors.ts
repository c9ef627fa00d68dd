/**
 * The one table of provider errors: every DashScope / OpenAI error code and HTTP status Sylvan
 * knows, the line the user reads and whether the request is worth sending again. It is used
 * wherever the error arrives — an HTTP status with a JSON body, a JSON error body inside a 200,
 * or an error frame inside a 200 stream — so the same code always reads the same.
 * Add a row to `RULES` to teach Sylvan a new error; the first matching row wins.
 */

/** What an error said about itself, from whichever place it arrived. */
export interface Problem {
  /** The HTTP status; 200 when the error came inside a successful response. */
  status?: number;
  /** DashScope's `code` (e.g. `Arrearage`, `data_inspection_failed`) or OpenAI's. */
  code?: string;
  /** DashScope's `type` (often a second spelling of the code). */
  type?: string;
  /** The server's own message. */
  message?: string;
  /** Set when the response was not a stream at all (see `FAULTS`). */
  fault?: FaultKind;
}

/** Where the request went and how many times it was sent, for the wording. */
export interface LineContext {
  /** "DashScope", "The OpenAI-compatible server". */
  label: string;
  model: string;
  baseURL?: string;
  keyVariable?: string;
  baseUrlVariable?: string;
  attempts: number;
}

export type ErrorKind =
  | 'moderation'
  | 'throttled'
  | 'account'
  | 'model-access'
  | 'model-not-found'
  | 'bad-key'
  | 'not-found'
  | 'bad-request'
  | 'server'
  | 'in-stream'
  | 'not-a-stream'
  | 'other';

interface Rule {
  kind: ErrorKind;
  /** Send the request again (with backoff, honouring `retry-after`)? */
  retry: boolean;
  matches(problem: Problem): boolean;
  line(problem: Problem, context: LineContext): string;
}

/** A response that was not the stream it should have been: never retried, each with its own line. */
export type FaultKind = 'empty-body' | 'html-body' | 'json-body' | 'not-a-stream' | 'empty-stream' | 'line-too-long' | 'too-large';

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
};

const codeOf = (problem: Problem): string => `${problem.code ?? ''} ${problem.type ?? ''}`;
const has = (problem: Problem, pattern: RegExp): boolean => pattern.test(codeOf(problem));
const says = (problem: Problem, pattern: RegExp): boolean => pattern.test(problem.message ?? '');

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
const said = (problem: Problem): string => {
  const message = clipMessage(problem.message);
  return message ? ` (${message})` : '';
};
const statusAndCode = (problem: Problem): string => {
  const parts = [problem.status !== undefined && problem.status !== 200 ? String(problem.status) : undefined, problem.code ?? problem.type];
  const text = parts.filter(Boolean).join(' ');
  return text ? ` (${text})` : '';
};

const RULES: Rule[] = [
  {
    kind: 'moderation',
    retry: false,
    matches: (p) => has(p, /data_inspection_failed|DataInspectionFailed/i) || says(p, /inappropriate content/i),
    line: (p, c) => {
      const what = says(p, /output/i) ? 'answer' : 'request';
      const advice = what === 'answer' ? 'Rephrase the question.' : 'Rephrase it (or /clear if an earlier turn tripped it).';
      return `${c.label}'s content moderation blocked the ${what}${statusAndCode(p)}. ${advice}`;
    },
  },
  {
    kind: 'account',
    retry: false,
    matches: (p) =>
      has(p, /insufficient_quota|Arrearage|AccessDenied\.Unpurchased|AllocationQuota\.FreeTierOnly|billing|overdue/i) ||
      says(p, /in good standing|insufficient (balance|quota)|exceeded your current quota|overdue/i),
    line: (p, c) =>
      `Your account cannot use ${c.model}${statusAndCode(p)}${said(p)}. Top up or enable it in the provider's console, or pick another model with /model.`,
  },
  {
    kind: 'throttled',
    retry: true,
    matches: (p) => has(p, /^\s*Throttling|rate_limit|RateLimit|\bThrottling/i) || p.status === 429,
    line: (p, c) => `${c.label} is rate-limiting requests${statusAndCode(p)}${tries(c)}${said(p)}. Wait a minute and try again.`,
  },
  {
    kind: 'model-not-found',
    retry: false,
    matches: (p) => has(p, /model_not_found|ModelNotFound|model_not_exist/i) || says(p, /model .*(does not exist|not found|not exist)/i),
    line: (p, c) => `${c.label} has no model "${c.model}"${statusAndCode(p)}. Pick one with /model (no name lists them) or --model.`,
  },
  {
    kind: 'bad-key',
    retry: false,
    matches: (p) => p.status === 401 || has(p, /invalid_api_key|InvalidApiKey/i),
    line: (p, c) => {
      const variable = c.keyVariable ? `Check ${c.keyVariable} in your environment or .env.` : 'Check the API key.';
      const status = p.status !== undefined && p.status !== 200 ? ` (${p.status})` : '';
      return `${c.label} rejected the API key${status}${said(p)}. ${variable}`;
    },
  },
  {
    kind: 'model-access',
    retry: false,
    matches: (p) => p.status === 403 || has(p, /AccessDenied|model_access_denied|permission/i),
    line: (p, c) =>
      `Your account cannot use ${c.model}${statusAndCode(p)}${said(p)}. Enable it in the provider's console, or pick another model with /model.`,
  },
  {
    kind: 'not-found',
    retry: false,
    matches: (p) => p.status === 404,
    line: (p, c) => {
      const variable = c.baseUrlVariable ? ` and ${c.baseUrlVariable}` : '';
      return `${c.baseURL ?? c.label} answered 404 Not Found${said(p)}. Check the model name "${c.model}"${variable}.`;
    },
  },
  {
    kind: 'server',
    retry: true,
    matches: (p) => p.status !== undefined && (p.status >= 500 || p.status === 408 || p.status === 409),
    line: (p, c) => `${c.label} failed with ${p.status}${tries(c)}${said(p)}. This is on the server's side; try again in a moment.`,
  },
  {
    kind: 'bad-request',
    retry: false,
    matches: (p) => p.status !== undefined && p.status >= 400 && p.status < 500,
    line: (p, c) => `${c.label} refused the request${statusAndCode(p)}${said(p)}.`,
  },
  {
    kind: 'in-stream',
    retry: false,
    matches: (p) => p.status === undefined || p.status < 400,
    line: (p, c) => `${c.label} reported an error in its answer${statusAndCode(p)}${said(p)}. Try again.`,
  },
];

const OTHER: Rule = {
  kind: 'other',
  retry: false,
  matches: () => true,
  line: (p, c) => `${c.label} answered${statusAndCode(p)}${tries(c)}${said(p)}.`,
};

/** The table's row for a problem: its kind and whether to send the request again. */
export function classifyProblem(problem: Problem): { kind: ErrorKind; retry: boolean } {
  if (problem.fault) return { kind: 'not-a-stream', retry: false };
  const rule = RULES.find((candidate) => candidate.matches(problem)) ?? OTHER;
  return { kind: rule.kind, retry: rule.retry };
}

/** The one line the user reads for a problem. */
export function problemLine(problem: Problem, context: LineContext): string {
  if (problem.fault) return FAULTS[problem.fault](context.baseURL ?? context.label, context);
  const rule = RULES.find((candidate) => candidate.matches(problem)) ?? OTHER;
  return rule.line(problem, context);
}

/**
 * Reads `{"error": {...}}` (DashScope, OpenAI), `{"code", "message"}` (DashScope's native API)
 * or `{"error": "text"}` (some local servers). Undefined when the body says nothing we can read.
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
  return problem;
}
