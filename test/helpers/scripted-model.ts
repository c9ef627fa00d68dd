import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';

/** Usage every scripted step reports. */
export const stepUsage = {
  inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 20, text: 20, reasoning: 0 },
};

export type ScriptedStep =
  | { text: string }
  | { calls: { name: string; input: unknown; id?: string }[]; text?: string }
  | { error: unknown }
  | { hang: true }
  | { cutAfter: string };

let nextId = 0;

function partsFor(step: ScriptedStep): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  if ('text' in step && step.text) {
    parts.push({ type: 'text-start', id: 't' });
    for (const piece of step.text.match(/.{1,4}/gsu) ?? []) parts.push({ type: 'text-delta', id: 't', delta: piece });
    parts.push({ type: 'text-end', id: 't' });
  }
  if ('calls' in step) {
    for (const call of step.calls) {
      parts.push({
        type: 'tool-call',
        toolCallId: call.id ?? `call-${++nextId}`,
        toolName: call.name,
        input: typeof call.input === 'string' ? call.input : JSON.stringify(call.input),
      });
    }
  }
  parts.push({
    type: 'finish',
    finishReason: 'calls' in step ? { unified: 'tool-calls', raw: 'tool_calls' } : { unified: 'stop', raw: 'stop' },
    usage: stepUsage,
  });
  return parts;
}

/**
 * A MockLanguageModelV4 that plays `steps` in order (the last one repeats), so a test reads like
 * a conversation. `model.doStreamCalls[n].prompt` is what step n was sent.
 */
export function scriptedModel(steps: ScriptedStep[] | ((index: number) => ScriptedStep)): MockLanguageModelV4 {
  let index = 0;
  return new MockLanguageModelV4({
    doStream: async ({ abortSignal }) => {
      const step = typeof steps === 'function' ? steps(index) : (steps[Math.min(index, steps.length - 1)] as ScriptedStep);
      index++;
      if ('error' in step) throw step.error;
      if ('hang' in step) {
        return {
          stream: new ReadableStream<LanguageModelV4StreamPart>({
            start(controller) {
              abortSignal?.addEventListener('abort', () => controller.error(abortSignal.reason), { once: true });
            },
          }),
        };
      }
      if ('cutAfter' in step) {
        return {
          stream: new ReadableStream<LanguageModelV4StreamPart>({
            start(controller) {
              controller.enqueue({ type: 'text-start', id: 't' });
              controller.enqueue({ type: 'text-delta', id: 't', delta: step.cutAfter });
              controller.error(new TypeError('terminated'));
            },
          }),
        };
      }
      return { stream: convertArrayToReadableStream(partsFor(step)) };
    },
  });
}
