import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ApprovalRequest } from '../../src/agent/turn-options.ts';
import { InteractiveApproval, nonInteractiveApproval } from '../../src/ui/approval-prompt.ts';
import type { LineReader, ReadResult } from '../../src/ui/line-reader.ts';

/** A reader that answers from a script and records what it was asked. */
class ScriptedReader implements LineReader {
  readonly prompts: { prompt: string; remember?: boolean }[] = [];
  readonly history: readonly string[] = [];
  readonly interactive = true;
  constructor(private readonly script: ReadResult[]) {}
  async read(prompt: string, options?: { remember?: boolean }): Promise<ReadResult> {
    this.prompts.push({ prompt, remember: options?.remember });
    const next = this.script.shift();
    assert.ok(next, `the reader was asked more often than scripted: ${prompt}`);
    return next;
  }
  close(): void {}
}

const line = (text: string): ReadResult => ({ kind: 'line', line: text });
const writeRequest: ApprovalRequest = { toolCallId: 'call-1', toolName: 'write_file', input: { path: 'hello.txt', content: 'hi\n' } };
const signal = new AbortController().signal;

function approvalWith(script: ReadResult[], options: { yes?: boolean } = {}) {
  const reader = new ScriptedReader(script);
  const shown: { summary: string; preview: string }[] = [];
  let interrupts = 0;
  const described: ApprovalRequest[] = [];
  const approval = new InteractiveApproval(
    reader,
    (lines) => shown.push(lines),
    async (request) => {
      described.push(request);
      return { summary: 'write_file hello.txt (1 line)', preview: '+ hi' };
    },
    options.yes ?? false,
    () => interrupts++,
  );
  return { approval, reader, shown, described, interrupts: () => interrupts };
}

describe('nonInteractiveApproval', () => {
  test('without --yes, write_file is denied with a reason that mentions --yes', () => {
    const decision = nonInteractiveApproval(false).decide('write_file', {});
    assert.ok(typeof decision === 'object' && 'deny' in decision, JSON.stringify(decision));
    assert.match(decision.deny, /--yes/);
    assert.match(decision.deny, /write_file/);
  });

  test('with --yes, write_file is allowed', () => {
    assert.equal(nonInteractiveApproval(true).decide('write_file', {}), 'allow');
  });

  test('other tools need no approval either way', () => {
    for (const yes of [true, false]) {
      for (const toolName of ['read_file', 'get_weather', 'calculate', 'list_files']) {
        assert.equal(nonInteractiveApproval(yes).decide(toolName, {}), 'not-needed');
      }
    }
  });

  test('asking is answered with a denial', async () => {
    assert.equal((await nonInteractiveApproval(false).ask(writeRequest, signal)).approved, false);
  });
});

describe('InteractiveApproval.decide', () => {
  test('write_file is asked about; other tools are not', () => {
    const { approval } = approvalWith([]);
    assert.equal(approval.decide('write_file', {}), 'ask');
    assert.equal(approval.decide('read_file', {}), 'not-needed');
  });

  test('--yes allows without asking', () => {
    assert.equal(approvalWith([], { yes: true }).approval.decide('write_file', {}), 'allow');
  });
});

describe('InteractiveApproval.ask', () => {
  for (const answer of ['y', 'yes', 'Y', ' YES ', '是', '好', 'ok']) {
    test(`"${answer}" approves`, async () => {
      const { approval } = approvalWith([line(answer)]);
      assert.deepEqual(await approval.ask(writeRequest), { approved: true });
      assert.equal(approval.decide('write_file', {}), 'ask', 'a single yes is not "always"');
    });
  }

  for (const answer of ['n', 'no', 'NO', '否', '不']) {
    test(`"${answer}" denies with a reason`, async () => {
      const { approval } = approvalWith([line(answer)]);
      const decision = await approval.ask(writeRequest);
      assert.equal(decision.approved, false);
      assert.match(decision.reason ?? '', /said no/);
    });
  }

  for (const answer of ['a', 'always', '总是']) {
    test(`"${answer}" approves, and later calls are allowed without asking`, async () => {
      const { approval } = approvalWith([line(answer)]);
      assert.deepEqual(await approval.ask(writeRequest), { approved: true });
      assert.equal(approval.decide('write_file', {}), 'allow');
      assert.deepEqual([...approval.always], ['write_file']);
    });
  }

  test('shows the description, then asks with the summary, without remembering the answer', async () => {
    const { approval, reader, shown, described } = approvalWith([line('y')]);
    await approval.ask(writeRequest);
    assert.deepEqual(described, [writeRequest]);
    assert.deepEqual(shown, [{ summary: 'write_file hello.txt (1 line)', preview: '+ hi' }]);
    assert.deepEqual(reader.prompts, [{ prompt: 'write_file hello.txt (1 line)? [y]es / [n]o / [a]lways this session › ', remember: false }]);
  });

  test('asks again after an answer it does not understand', async () => {
    const { approval, reader, shown } = approvalWith([line('maybe'), line(''), line('yes please'), line('n')]);
    const decision = await approval.ask(writeRequest);
    assert.equal(decision.approved, false);
    assert.equal(reader.prompts.length, 4);
    assert.equal(shown.length, 1, 'the preview is shown once');
  });

  test('the end of input denies', async () => {
    const { approval, interrupts } = approvalWith([{ kind: 'eof' }]);
    const decision = await approval.ask(writeRequest);
    assert.equal(decision.approved, false);
    assert.ok(decision.reason);
    assert.equal(interrupts(), 0);
  });

  test('Ctrl-C calls onInterrupt and denies', async () => {
    const { approval, interrupts } = approvalWith([{ kind: 'interrupt', hadText: false }]);
    const decision = await approval.ask(writeRequest);
    assert.equal(decision.approved, false);
    assert.match(decision.reason ?? '', /interrupted/);
    assert.equal(interrupts(), 1);
    assert.equal(approval.decide('write_file', {}), 'ask');
  });
});
