import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatAge, sessionItem } from '../../src/ui/commands/session-picker.ts';

test('ages in words: minutes, hours today, yesterday, days, then the date', () => {
  const now = new Date(2026, 10, 30, 15, 0, 0);
  const ago = (ms: number) => formatAge(new Date(now.getTime() - ms), now);
  assert.equal(ago(20_000), 'just now');
  assert.equal(ago(5 * 60_000), '5 min ago');
  assert.equal(ago(3 * 3600_000), '3 h ago');
  assert.equal(ago(20 * 3600_000), 'yesterday');
  assert.equal(ago(3 * 86_400_000), '3 days ago');
  assert.equal(ago(30 * 86_400_000), '2026-10-31');
  assert.equal(formatAge(new Date(now.getTime() + 60_000), now), 'just now', 'a clock a little ahead is no error');
});

test("a session's row: its title, and age · turns · branch (and the folder when it is another one)", () => {
  const session = {
    id: 's1', cwd: '/work/other', provider: 'dashscope', model: 'qwen-plus', createdAt: '', messageCount: 4, turns: 2,
    updatedAt: new Date(Date.now() - 5 * 60_000 - 1000).toISOString(), title: 'Fix it', branch: 'main',
  };
  assert.deepEqual(sessionItem(session, { now: new Date(), showFolder: false }), { title: 'Fix it', detail: '5 min ago · 2 turns · main', keywords: 'main\n/work/other\ns1' });
  assert.equal(sessionItem({ ...session, branch: undefined, title: '', turns: 1 }, { now: new Date(), showFolder: true }).detail, '5 min ago · 1 turn · /work/other');
});
