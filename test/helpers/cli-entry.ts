// The CLI as bin/sylvan.js runs it, but from source, so tests never run a stale build.
import { main } from '../../src/cli.ts';

process.exitCode = await main();
// Lingering sockets or timers must not keep a finished CLI alive, as the bin's process.exit ensures.
process.exit();
