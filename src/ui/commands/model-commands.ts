import { contextWindowFor, estimateCost } from '../../models/model-catalogue.ts';
import { describeThinking, parseThinkCommand } from '../../models/thinking.ts';
import type { ReplState } from '../state/repl-state.ts';
import { sanitizeLine } from '../../shared/text/sanitize.ts';


const windowLabel = (tokens: number): string =>
  tokens >= 1_000_000 ? `${tokens / 1_000_000}M` : `${Math.round(tokens / 1000)}k`;

/** `/model`: lists the server's models, current one marked; `/model NAME` switches. */
export async function modelCommand(argument: string, state: ReplState): Promise<void> {
  const name = argument.trim();
  const runtime = state.runtime;
  if (name === '') {
    state.print(`  ${sanitizeLine(runtime.model)} (${state.config.provider}) · ${windowLabel(runtime.windowTokens)} context · ${describeThinking(sanitizeLine(runtime.model), runtime.thinking)}`);
    if (state.config.provider === 'mock') return;
    const listed = await state.interruptible((signal) => runtime.listModels(signal));
    if (!listed.ok) {
      state.print(state.dim(`  Could not list the server's models (${sanitizeLine(listed.reason)}). Switch with /model NAME.`));
      return;
    }
    if (listed.models.length === 0) {
      state.print(state.dim('  The server lists no models. Switch with /model NAME.'));
      return;
    }
    for (const model of listed.models) {
      const current = model === runtime.model;
      state.print(`  ${current ? '*' : ' '} ${sanitizeLine(model)}${current ? state.dim(' (current)') : ''}`);
    }
    state.print(state.dim('  Switch with /model NAME.'));
    return;
  }
  if (state.config.provider === 'mock') {
    state.print('  The mock provider has one model. Set DASHSCOPE_API_KEY or OPENAI_API_KEY to choose a real one.');
    return;
  }
  if (/\s/.test(name) || name.length > 200) {
    state.print('  A model name is one word, e.g. /model qwen-flash.');
    return;
  }
  runtime.setModel(name);
  const priced = estimateCost(name, { inputTokens: 1, outputTokens: 0, cachedInputTokens: 0 }, runtime.pricing) !== undefined;
  const known = contextWindowFor(name) === runtime.windowTokens ? '' : ' (context window kept from SYLVAN_CONTEXT_TOKENS)';
  state.print(
    `  Now using ${sanitizeLine(name)}: ${windowLabel(runtime.windowTokens)} context${known} · ${describeThinking(sanitizeLine(name), runtime.thinking)}${priced ? '' : ' · no known price'}.`,
  );
}

/** `/think`, `/think on|off|auto`, `/think budget N`. */
export function thinkCommand(argument: string, state: ReplState): void {
  const next = parseThinkCommand(argument, state.runtime.thinking);
  if ('error' in next) {
    state.print(`  ${next.error}`);
    return;
  }
  state.runtime.setThinking(next);
  state.print(`  ${describeThinking(sanitizeLine(state.runtime.model), next)}.`);
}
