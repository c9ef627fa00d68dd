/** Tool-call markup a model wrote as text or reasoning instead of calling the tool. */
const CALL_MARKUP = /<tool_call>|<function=|"tool_calls"\s*:|<\|tool_call/;

/**
 * The line for a step that ended with no answer and no tool call, naming the finish reason and,
 * when the model wrote its call into its reasoning or as markup, saying that nothing ran.
 */
export function emptyStepMessage(finishReason: string, reasoning: string): string {
  const reason = `finish reason: ${finishReason}`;
  if (CALL_MARKUP.test(reasoning)) {
    return `The model wrote a tool call into its reasoning or answer text instead of making it, so nothing ran (${reason}). Try again or rephrase.`;
  }
  if (finishReason === 'length') {
    return `The model used up its output limit before answering (${reason}). Try again with a smaller thinking budget (/think budget N) or a shorter request.`;
  }
  if (reasoning.trim() !== '') return `The model thought but returned no answer (${reason}). Try again or rephrase.`;
  return `The model returned no answer (${reason}). Try again or rephrase.`;
}
