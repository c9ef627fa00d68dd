// Starts the search worker when Sylvan runs from its TypeScript source (tests, `npm run dev`):
// Node 20 does not apply `--import tsx` to worker threads, so tsx is registered here first.
// The built program (dist/) starts search-worker.js directly and never loads this file.
import { register } from 'tsx/esm/api';

register();
await import('./search-worker.ts');
