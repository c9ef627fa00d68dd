import { listSessions, type SessionSummary } from '../../session/session-list.ts';
import type { PickItem, PickRequest } from '../input/line-reader-contract.ts';

/** The picker lists at most this many sessions (newest first); the filter searches them all. */
const PICKER_LIMIT = 100;

/**
 * The sessions `--resume` and `/resume` offer: this folder's, newest first, or every folder's when
 * this one has none (`here` false: each row then names its folder). `except` leaves one out (the
 * session being resumed from). Never throws.
 */
export function resumableSessions(home: string, cwd: string, except?: string): { sessions: SessionSummary[]; here: boolean } {
  const mine = (sessions: SessionSummary[]) => sessions.filter((session) => session.id !== except);
  const here = mine(listSessions(home, { cwd, limit: PICKER_LIMIT + 1 })).slice(0, PICKER_LIMIT);
  if (here.length > 0) return { sessions: here, here: true };
  return { sessions: mine(listSessions(home, { limit: PICKER_LIMIT + 1 })).slice(0, PICKER_LIMIT), here: false };
}

/** How long ago, in words: `just now`, `5 min ago`, `3 h ago`, `yesterday`, `4 days ago`, then the date. */
export function formatAge(then: Date, now: Date): string {
  const minutes = Math.floor(Math.max(0, now.getTime() - then.getTime()) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const days = Math.round((startOfDay(now) - startOfDay(then)) / 86_400_000);
  if (days <= 0) return `${Math.floor(minutes / 60)} h ago`;
  if (days === 1) return 'yesterday';
  if (days < 7) return `${days} days ago`;
  return `${then.getFullYear()}-${String(then.getMonth() + 1).padStart(2, '0')}-${String(then.getDate()).padStart(2, '0')}`;
}

function startOfDay(date: Date): number {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}

/** One picker row: the first message as its title; when, how long and on which branch as its detail. */
export function sessionItem(session: SessionSummary, options: { now: Date; showFolder: boolean }): PickItem {
  const parts = [formatAge(new Date(session.updatedAt), options.now), `${session.turns} turn${session.turns === 1 ? '' : 's'}`];
  if (session.branch) parts.push(session.branch);
  if (options.showFolder) parts.push(session.cwd);
  return {
    title: session.title || '(no message)',
    detail: parts.join(' · '),
    keywords: [session.branch ?? '', session.cwd, session.id].join('\n'),
  };
}

/** The picker's request for these sessions; `hint` ends its key row ("resumes · Esc starts a new session"). */
export function sessionPickRequest(sessions: readonly SessionSummary[], options: { here: boolean; hint: string; now?: Date }): PickRequest {
  const now = options.now ?? new Date();
  return {
    prompt: 'Resume a session › ',
    items: sessions.map((session) => sessionItem(session, { now, showFolder: !options.here })),
    hint: options.hint,
  };
}
