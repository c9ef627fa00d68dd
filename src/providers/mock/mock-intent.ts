import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { answerToolResults } from './mock-answer.ts';
import {
  askCityText,
  fallbackText,
  greetingText,
  missingToolsText,
  recallText,
  summaryAcknowledgementText,
  summaryText,
  thanksText,
} from './mock-conversation.ts';
import { SUMMARIZE_REQUEST_PREFIX, SUMMARY_PREFIX, detectLanguage, readPrompt } from './mock-prompt.ts';
import { detectToolIntents } from './mock-tool-intents.ts';
import { answerWebTurn, planWebFollowUp } from './mock-web-intents.ts';
import type { AvailableTools, PlannedToolCall } from './mock-tool-intents.ts';


/** What the mock model does in one step: call tools, or answer with text. */
export type MockReply = { type: 'tool-calls'; calls: PlannedToolCall[] } | { type: 'text'; text: string };

const RECALL =
  /我(?:之前|刚才|刚刚|前面|上次|以前|先前)?(?:都)?(?:问|说)(?:了|过)+(?:些)?(?:什么|啥)|我(?:之前|刚才|刚刚|前面)(?:都)?问的是(?:什么|啥)|我们(?:之前|刚才)?(?:都)?(?:聊|谈|说)(?:了|过)(?:些)?(?:什么|啥)|总结一下(?:我们的)?对话|what (?:did|have) i (?:ask|say|said|asked)|what (?:did|have) we (?:talk(?:ed)? about|discuss(?:ed)?)|summari[sz]e (?:our|the|this) (?:conversation|chat)|\brecap\b/i;
const GREETING =
  /^(?:你好|您好|嗨|哈喽|哈啰|在吗|早上好|下午好|晚上好|hi|hello|hey|yo|howdy|good (?:morning|afternoon|evening)|你是谁|你能做什么|你会什么|帮助|help|who are you|what can you do)(?:呀|啊|吗|呢)?[\s!！。.,，?？~～]*$/i;

const THANKS = /^(?:谢谢|多谢|感谢|谢啦|thanks|thank you|thx|ty|好的|ok|okay|cool|great|nice)(?:你|您)?(?:啦|了|!|！|。|\.|\s|a lot|so much)*$/i;

/**
 * Decides the mock model's next step from the prompt alone (deterministic, pure): answer the current turn's tool
 * results; write the /compact summary; recall the conversation; call the tools the last user message asks for
 * (only those offered); ask for a missing city; greet; or admit it is the offline mock and suggest what to try.
 */
export function decideMockReply(prompt: LanguageModelV4Prompt, tools: AvailableTools): MockReply {
  const reading = readPrompt(prompt);
  const userText = reading.lastUserText;
  const language = detectLanguage(userText);
  const text = (value: string): MockReply => ({ type: 'text', text: value });
  const toolNames = new Set(tools.keys());

  if (reading.resultsAfterLastUser.length > 0) {
    const followUp = planWebFollowUp(userText, reading.resultsAfterLastUser, tools);
    if (followUp) return { type: 'tool-calls', calls: [followUp] };
    const results = reading.resultsAfterLastUser;
    return text(answerWebTurn(userText, results, language) ?? answerToolResults(results, language));
  }
  if (userText.startsWith(SUMMARIZE_REQUEST_PREFIX)) return text(summaryText(reading.history, reading.earlierSummary));
  // A summary handed over as the last message is context to keep, not a request to act on.
  if (userText.startsWith(SUMMARY_PREFIX)) return text(summaryAcknowledgementText(language));
  if (RECALL.test(userText)) return text(recallText(reading.history, reading.earlierSummary, language));

  const previousUserText = reading.history.findLast((entry) => entry.kind === 'user');
  const intents = detectToolIntents(userText, tools, previousUserText?.kind === 'user' ? previousUserText.text : '');
  if (intents.calls.length > 0) return { type: 'tool-calls', calls: intents.calls };
  if (intents.missingTools.length > 0) return text(missingToolsText(intents.missingTools, language));
  if (intents.weatherWithoutCity) return text(askCityText(language));
  if (userText === '' || GREETING.test(userText)) return text(greetingText(toolNames, language));
  if (THANKS.test(userText)) return text(thanksText(language));
  return text(fallbackText(userText, toolNames, language));
}
