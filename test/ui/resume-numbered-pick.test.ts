import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { Config } from '../../src/config/config.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { sessionPath } from '../../src/session/session-paths.ts';
import { createSession } from '../../src/session/session-writer.ts';
import type { LineReader } from '../../src/ui/input/line-reader-contract.ts';
import { resolveResume } from '../../src/ui/commands/resume.ts';

// Issue 32's behaviour for --resume without a terminal picker: the sessions are numbered, newest
// first, and the number typed is the session resumed.

const home = mkdtempSync(join(tmpdir(), 'sylvan-resume-pick-'));
after(() => rmSync(home, { recursive: true, force: true }));

/** A saved session of one question, last written `minutesAgo` ago. */
function save(question: string, minutesAgo: number): string {
  const writer = createSession({ home, cwd: home, provider: 'mock', model: 'mock' });
  writer.appendMessage({ role: 'user', content: question });
  writer.appendMessage({ role: 'assistant', content: `answer to ${question}` });
  writer.close();
  const when = new Date(Date.now() - minutesAgo * 60_000);
  utimesSync(sessionPath(home, writer.id), when, when);
  return writer.id;
}

/** A reader with no picker (a pipe) that answers `line` to the one question. */
const answering = (line: string) => ({ read: async () => ({ kind: 'line', line }) }) as unknown as LineReader;

test('answering 1 resumes the first session listed (the newest); 2 the second', async () => {
  const older = save('the older question', 30);
  const newer = save('the newer question', 5);
  const config = { ...(loadConfig([], { SYLVAN_HOME: home }, home) as Config), home, cwd: home, resume: { kind: 'pick' } } as Config;

  const said: string[] = [];
  const first = await resolveResume(config, answering('1'), (line) => said.push(line));
  assert.match(said[0] ?? '', /^ {3}1\. .* {2}the newer question {2}\(2 messages\)$/);
  assert.match(said[1] ?? '', /^ {3}2\. .* {2}the older question/);
  assert.deepEqual(first?.messages.map((message) => message.content), ['the newer question', 'answer to the newer question']);
  assert.equal(said.at(-1), `Resumed session ${newer} (1 earlier turn).`);
  first?.writer.close();

  const second = await resolveResume(config, answering('2'), () => {});
  assert.equal(second?.messages[0]?.content, 'the older question');
  second?.writer.close();
  assert.notEqual(older, newer);
});
