// The floor of streaming an answer to a terminal: the same provider package Sylvan uses for
// DashScope, `streamText`, the text written raw; a prompt before each question and after each answer.
import { createAlibaba } from '@ai-sdk/alibaba';
import { streamText } from 'ai';
import { createInterface } from 'node:readline';

const model = createAlibaba({ baseURL: process.env.DASHSCOPE_BASE_URL, apiKey: process.env.DASHSCOPE_API_KEY }).chatModel('qwen-plus');
const lines = createInterface({ input: process.stdin });
process.stdout.write('› ');
for await (const line of lines) {
  const result = streamText({ model, prompt: line });
  for await (const text of result.textStream) process.stdout.write(text);
  process.stdout.write('\n› ');
}
