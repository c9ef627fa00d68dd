// What a build was made from, so that `npm test` can skip building a dist/ that is already current:
// CI runs `npm run build` just before `npm test`, and a developer reruns the suite without touching
// a file. Every input esbuild read (src/, node_modules), this script and package.json are recorded
// by size and modification time, and so is every file the build wrote; any change to either, an
// output gone, or another Node (the build asks Node which names its own modules export, so Node 22
// builds other chunks than Node 20) means building again.
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const RECORD = '.build-inputs.json';

/** Size and modification time: an edit, a checkout or an install changes one of them. */
function fingerprint(path) {
  try {
    const stats = statSync(path);
    return `${stats.size}:${stats.mtimeMs}`;
  } catch {
    return 'missing';
  }
}

/**
 * Writes the record into `target`: `inputs`, paths relative to `root` as esbuild's metafile names
 * them (a plugin's virtual module, `namespace:path`, is no file and stays "missing"), and `outputs`,
 * the files the build published.
 */
export function recordInputs(root, target, inputs, outputs) {
  const files = {};
  for (const input of new Set(inputs)) files[input] = fingerprint(resolve(root, input));
  const written = {};
  for (const output of outputs) written[output] = fingerprint(join(target, output));
  // Written whole or not at all; without it the next `--if-changed` simply builds.
  const staged = join(target, `${RECORD}.${process.pid}`);
  try {
    writeFileSync(staged, `${JSON.stringify({ node: process.version, files, outputs: written })}\n`);
    renameSync(staged, join(target, RECORD));
  } catch {
    rmSync(staged, { force: true });
  }
}

/** True when `target` holds a whole build, made by this Node, whose every recorded input and output is unchanged. */
export function isCurrent(root, target) {
  let record;
  try {
    record = JSON.parse(readFileSync(join(target, RECORD), 'utf8'));
  } catch {
    return false;
  }
  const { node, files, outputs } = record ?? {};
  const isMap = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
  if (node !== process.version || !isMap(files) || !isMap(outputs) || Object.keys(outputs).length === 0) return false;
  const unchanged = (recorded, path) => fingerprint(path) === recorded && recorded !== 'missing';
  return (
    Object.entries(outputs).every(([output, recorded]) => unchanged(recorded, join(target, output))) &&
    Object.entries(files).every(([input, recorded]) => fingerprint(resolve(root, input)) === recorded)
  );
}
