import { hangUpAnswered } from '../shared/hang-up.ts';

/**
 * MCP servers end with Sylvan, however many hubs hold them (`sylvan --acp` holds one per session):
 * one listener for exit, SIGTERM and SIGHUP while any hub is open, instead of a set per hub, which
 * Node warns about past ten and which would keep every hub alive. None once the last one closed, so
 * a signal ends the process by default again.
 */
const killers = new Set<() => void>();

const killAll = (): void => {
  for (const kill of killers) kill();
};

const onSignal = (signal: NodeJS.Signals): void => {
  // The REPL's way out closes the servers, then ends the process (shared/hang-up.ts).
  if (signal === 'SIGHUP' && hangUpAnswered()) return;
  killAll();
  process.exit(signal === 'SIGHUP' ? 129 : 143);
};

/** Runs `kill` (synchronous: it may run at exit) when the process ends; returns the way to stop that. */
export function endWithProcess(kill: () => void): () => void {
  if (killers.size === 0) {
    process.on('exit', killAll);
    process.on('SIGTERM', onSignal);
    process.on('SIGHUP', onSignal);
  }
  killers.add(kill);
  return () => {
    if (!killers.delete(kill) || killers.size > 0) return;
    process.off('exit', killAll);
    process.off('SIGTERM', onSignal);
    process.off('SIGHUP', onSignal);
  };
}
