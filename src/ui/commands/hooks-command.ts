import type { ReplState } from '../state/repl-state.ts';
import { sanitizeLine } from '../../shared/text/sanitize.ts';

/**
 * `/hooks`: every configured hook with its event and matcher, the file it came from, whether it
 * runs (a project's hooks wait for the user's trust) and its last run. `/hooks trust` trusts the
 * project's hooks as they are now; a change to them asks again.
 */
export function hooksCommand(argument: string, state: ReplState): void {
  const hooks = state.runtime.hooks;
  if (argument.trim() === 'trust') return trustProjectHooks(state);
  if (argument.trim() !== '') return state.print('  Usage: /hooks, or /hooks trust to let this project\'s hooks run.');
  const listed = hooks.list();
  if (listed.length === 0 && hooks.unknownEvents().length === 0) {
    state.print('  No hooks configured. Add "hooks" to $SYLVAN_HOME/settings.json or .sylvan/settings.json (see docs/hooks.md).');
    return;
  }
  let source = '';
  for (const hook of listed) {
    if (hook.source !== source) {
      source = hook.source;
      state.print(`  ${sanitizeLine(source)}  ${state.dim(hook.trusted ? 'runs' : 'not trusted: does not run (/hooks trust)')}`);
    }
    const handler = hook.handler.type === 'command' ? hook.handler.command : `POST ${hook.handler.url}`;
    const matcher = hook.matcher === '' ? '' : ` ${hook.matcher}`;
    const last = hook.lastRun ? `last run: ${exitWords(hook.lastRun.exit)} in ${hook.lastRun.ms} ms at ${hook.lastRun.at.toLocaleTimeString('en-GB')}` : 'not run yet';
    state.print(`    ${sanitizeLine(`${hook.event}${matcher}`)}  ${sanitizeLine(handler).slice(0, 120)}  ${state.dim(last)}`);
  }
  for (const { file, events } of hooks.unknownEvents()) {
    state.print(`  ${state.dim(sanitizeLine(`${file}: ${events.join(', ')}: not an event Sylvan has; those hooks never run`))}`);
  }
}

function trustProjectHooks(state: ReplState): void {
  const waiting = state.runtime.hooks.untrusted();
  if (waiting.length === 0) return state.print('  No project hooks are waiting for trust.');
  for (const file of waiting) {
    state.print(`  ${sanitizeLine(file.file)}:`);
    for (const hook of file.hooks) {
      const handler = hook.handler.type === 'command' ? hook.handler.command : `POST ${hook.handler.url}`;
      state.print(`    ${sanitizeLine(`${hook.event} ${hook.matcher}`.trim())}  ${sanitizeLine(handler)}`);
    }
  }
  try {
    state.runtime.hooks.trustProject();
  } catch (error) {
    return state.print(`  Could not record the trust: ${sanitizeLine((error as Error).message)}. The hooks stay off.`);
  }
  state.print('  Trusted: these hooks run from now on, until one of them changes.');
}

function exitWords(exit: number | string): string {
  if (exit === 0) return 'exit 0';
  if (exit === 2) return 'exit 2 (blocked)';
  if (typeof exit === 'number') return `exit ${exit}`;
  return exit;
}
