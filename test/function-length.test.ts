import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const sourceRoot = join(projectRoot, 'src');

/** The size rules of src/ (issue 33): small files, short functions, folders one can take in at a glance. */
const MAX_FUNCTION_LINES = 100;
const MAX_FILE_LINES = 400;
const MAX_FILES_IN_A_FOLDER = 20;
/** The section of docs/architecture.md that lists the functions allowed to be longer, each with why. */
const ALLOWED_SECTION = '## Functions longer than 100 lines';

/** src/'s TypeScript files, relative to the project (`src/ui/repl/repl.ts`). */
function sourceFiles(): string[] {
  return readdirSync(sourceRoot, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => relative(projectRoot, join(sourceRoot, file)));
}

/** Every function in one file (declarations, methods, arrows, function expressions, constructors, accessors), with its name and length. */
export function functionLengths(file: string, text: string): { name: string; lines: number; line: number }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: { name: string; lines: number; line: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ name: nameOf(node), lines: last - first + 1, line: first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** A function's name, or the name it is assigned to (`const f = () => …`, `{ f: () => … }`). */
function nameOf(node: ts.Node): string {
  const named = (node as { name?: ts.Node }).name;
  if (named) return named.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))) return parent.name.getText();
  return '(anonymous)';
}

/** `name file` for each entry of the doc's list: "- `agentLoop` (`src/agent/loop/agent-loop.ts`, …): why". */
function allowedLongFunctions(): Set<string> {
  const doc = readFileSync(join(projectRoot, 'docs/architecture.md'), 'utf8');
  const start = doc.indexOf(ALLOWED_SECTION);
  assert.ok(start >= 0, `docs/architecture.md has a section "${ALLOWED_SECTION}"`);
  const section = doc.slice(start + ALLOWED_SECTION.length).split(/\n## /)[0]!;
  const entries = [...section.matchAll(/^- `([^`]+)` \(`([^`]+)`/gm)].map(([, name, file]) => `${name} ${file}`);
  assert.ok(entries.length > 0, 'the section lists at least one function');
  return new Set(entries);
}

test(`no function in src/ is over ${MAX_FUNCTION_LINES} lines unless docs/architecture.md says why`, () => {
  const allowed = allowedLongFunctions();
  const long: string[] = [];
  const seen = new Set<string>();
  for (const file of sourceFiles()) {
    for (const { name, lines, line } of functionLengths(file, readFileSync(join(projectRoot, file), 'utf8'))) {
      if (lines <= MAX_FUNCTION_LINES) continue;
      seen.add(`${name} ${file}`);
      if (!allowed.has(`${name} ${file}`)) long.push(`${file}:${line} ${name} (${lines} lines)`);
    }
  }
  assert.deepEqual(long, [], `split these, or list them with a reason under "${ALLOWED_SECTION}" in docs/architecture.md`);
  // An entry for a function that is gone or now short is stale.
  assert.deepEqual([...allowed].filter((entry) => !seen.has(entry)), [], 'listed as long, but no longer over the limit');
});

test('the walker measures every kind of function', () => {
  const body = (lines: number) => Array.from({ length: lines - 2 }, (_, index) => `  const a${index} = ${index};`).join('\n');
  const text = [
    `function declared() {\n${body(101)}\n}`,
    `const arrow = () => {\n${body(5)}\n};`,
    `class C {\n  method() {\n${body(3)}\n  }\n}`,
  ].join('\n');
  const found = functionLengths('sample.ts', text);
  assert.deepEqual(
    found.map(({ name, lines }) => `${name} ${lines}`),
    ['declared 101', 'arrow 5', 'method 3'],
  );
});

test(`no file in src/ is over ${MAX_FILE_LINES} lines`, () => {
  const files = sourceFiles();
  assert.ok(files.length > 300, `the sources were read (${files.length} files)`);
  const long = files
    .map((file) => ({ file, lines: readFileSync(join(projectRoot, file), 'utf8').split('\n').length - 1 }))
    .filter(({ lines }) => lines > MAX_FILE_LINES)
    .map(({ file, lines }) => `${file} (${lines} lines)`);
  assert.deepEqual(long, []);
});

test(`no folder in src/ holds over ${MAX_FILES_IN_A_FOLDER} files directly`, () => {
  const counts = new Map<string, number>();
  for (const entry of readdirSync(sourceRoot, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const folder = relative(projectRoot, entry.parentPath);
    counts.set(folder, (counts.get(folder) ?? 0) + 1);
  }
  assert.ok((counts.get('src/ui/input') ?? 0) > 5, 'the folders were counted');
  const full = [...counts].filter(([, count]) => count > MAX_FILES_IN_A_FOLDER).map(([folder, count]) => `${folder} (${count} files)`);
  assert.deepEqual(full, []);
});
