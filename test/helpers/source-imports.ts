import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';

// src/'s import graph as dependency-cruiser reads it, for the layer check (test/layers.test.ts) and
// the import-cycle check (test/import-cycles.test.ts): read once per process, so two checks in one
// shard parse the sources once.

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The layers of src/, top to bottom (docs/architecture.md draws them). A folder imports only its own
 * layer or lower ones; within a layer any direction, but no two folders (at any depth) import each
 * other. A new top-level folder must be placed here, or the check fails.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ['cli.ts'],
  ['ui'],
  ['runtime'],
  ['agent', 'agents', 'approval', 'hooks', 'mcp', 'checkpoints', 'session', 'prompt-files'],
  ['tools', 'providers', 'sandbox', 'config'],
  ['models', 'files'],
  ['shared'],
];

const pathOf = (entries: readonly string[]) => `^src/(${entries.map((entry) => entry.replace('.', '\\.')).join('|')})(/|$)`;

/** One rule per layer: nothing in it may import anything in a layer above it. */
function upwardRules(): IForbiddenRuleType[] {
  return LAYERS.slice(1).map((layer, index) => ({
    name: `no-upward-from-${layer.join('-')}`,
    severity: 'error',
    from: { path: pathOf(layer) },
    to: { path: pathOf(LAYERS.slice(0, index + 1).flat()) },
  }));
}

let cruised: Promise<ICruiseResult> | undefined;

/** The sources' imports (with the upward imports as violations), read once per process. */
export const cruiseSources = () => (cruised ??= cruiseOnce());

async function cruiseOnce(): Promise<ICruiseResult> {
  const previous = process.cwd();
  // dependency-cruiser names modules relative to the working directory.
  process.chdir(projectRoot);
  try {
    const reported = await cruise(['src'], {
      // Type-only imports count: a layer that needs another's type depends on it.
      tsPreCompilationDeps: true,
      tsConfig: { fileName: 'tsconfig.json' },
      doNotFollow: { path: 'node_modules' },
      ruleSet: { forbidden: upwardRules() },
      validate: true,
    });
    return reported.output as ICruiseResult;
  } finally {
    process.chdir(previous);
  }
}

