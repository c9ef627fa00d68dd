/**
 * `sylvan --help`, grouped as the docs are (start, model and provider, approval and safety,
 * sessions, print mode). Each flag is said here once, with the variable that sets it too.
 */
export const HELP = `Usage: sylvan [options]        chat in the terminal, about the folder it runs in
       sylvan -p "question"    answer one question and exit (or pipe it in)
       sylvan --acp            serve an editor (Zed, JetBrains, Neovim) over ACP

Start:
      --acp                serve an editor over the Agent Client Protocol on
                           stdin/stdout (also: sylvan acp)
  -h, --help               this help
  -v, --version            the version

Model and provider:
      --provider NAME      dashscope | openai | mock; default: by the key found
  -m, --model NAME         model id, e.g. qwen-plus-latest
      --think, --no-think  thinking on or off for hybrid Qwen3 models
      --thinking-budget N  most tokens to think before answering (turns it on)
      --max-steps N        model requests per turn, default 10
      --token-budget N     tokens per turn, default 500000
      --timeout SECONDS    limit for each model step, default 120
  (or SYLVAN_PROVIDER, SYLVAN_MODEL, SYLVAN_THINKING=on|off|auto,
   SYLVAN_THINKING_BUDGET, SYLVAN_MAX_STEPS, SYLVAN_TOKEN_BUDGET,
   SYLVAN_TIMEOUT)

Budgets (money in the provider's currency: ¥ on DashScope's mainland endpoint):
      --turn-cost-budget AMOUNT      money per turn
      --session-cost-budget AMOUNT   money per session, --continue included
      --session-request-budget N     model requests per session
      --turn-time-budget SECONDS     wall-clock time per turn
      --session-time-budget SECONDS  time spent in turns this run
  (or SYLVAN_TURN_COST_BUDGET, SYLVAN_SESSION_COST_BUDGET,
   SYLVAN_SESSION_REQUEST_BUDGET, SYLVAN_TURN_TIME_BUDGET,
   SYLVAN_SESSION_TIME_BUDGET; a folder may only lower them)

Approval and safety:
  -y, --yes                approve every tool call (file writes, commands, MCP
                           tools) without asking
      --mode NAME          ask | auto-edit | plan, default ask
      --sandbox MODE       commands in a sandbox: auto | on | off, default auto
  (or SYLVAN_YES=1, SYLVAN_MODE, SYLVAN_SANDBOX)

Sessions:
  -c, --continue           resume the latest session of this folder
  -r, --resume [ID]        pick a recent session, or open one by id

Print mode:
  -p, --print              one turn: the answer on stdout, tool lines on stderr
      --json               every event as one JSON line on stdout (implies -p)

Keys (environment, or .env in this folder): DASHSCOPE_API_KEY, OPENAI_API_KEY
(+ OPENAI_BASE_URL). Models: DASHSCOPE_MODEL or OPENAI_MODEL (after --model and
SYLVAN_MODEL). A local server needs no key (Ollama):
  OPENAI_BASE_URL=http://localhost:11434/v1
With no key Sylvan runs a built-in offline mock model.`;

/** What a flag that takes a value expects, for the line saying it was given none. */
const VALUE_EXAMPLES: Record<string, string> = {
  '--provider': '--provider dashscope',
  '--model': '--model qwen-plus-latest',
  '--max-steps': '--max-steps 10',
  '--token-budget': '--token-budget 500000',
  '--timeout': '--timeout 120',
  '--sandbox': '--sandbox auto',
  '--mode': '--mode plan',
  '--thinking-budget': '--thinking-budget 2000',
  '--turn-cost-budget': '--turn-cost-budget 0.5',
  '--session-cost-budget': '--session-cost-budget 2',
  '--session-request-budget': '--session-request-budget 200',
  '--turn-time-budget': '--turn-time-budget 600',
  '--session-time-budget': '--session-time-budget 3600',
};

/**
 * Node's parseArgs message said as what to do: a flag given no value names the flag and an
 * example; anything else keeps its first sentence.
 */
export function argumentProblem(message: string): string {
  const flag = /^Option '(?:-\w, )?(--[\w-]+) <value>' argument (?:missing|is ambiguous)/.exec(message)?.[1];
  if (flag !== undefined) {
    const example = VALUE_EXAMPLES[flag];
    return `${flag} needs a value${example === undefined ? '' : `, e.g. ${example}`}. Run sylvan --help for the options.`;
  }
  // Node's text goes on about positionals after "--"; its first sentence is the useful part.
  const first = message.split('\n')[0]?.split(/(?<=\.) /)[0] ?? 'Invalid arguments.';
  return `${first} Run sylvan --help for the options.`;
}
