// What a test file may change in the process it runs in, and must put back before it ends when it
// shares that process with other files (a shard, test/helpers/shard.mjs): the environment, the
// working directory, the globals (fetch, setTimeout, …), the functions of the node: modules tests
// replace (dns.lookup, fs.*, child_process.*), process's own properties, its event listeners, and
// child processes or servers left running. `snapshot()` costs well under a millisecond.
import { createRequire, syncBuiltinESMExports } from 'node:module';

const require = createRequire(import.meta.url);

/** The node: modules whose functions a test might replace (by assignment or `mock.method`). */
const MODULES = ['dns', 'dns/promises', 'fs', 'fs/promises', 'child_process', 'net', 'http', 'https', 'os', 'timers', 'readline', 'tty'];
const moduleObjects = MODULES.map((name) => [name, require(`node:${name}`)]);

/** Resources that mean something is still running: a child process, a listening server. */
const RUNNING = /^(ProcessWrap|TCPServerWrap|PipeServerWrap)$/;

/** `target`'s own properties, each as its descriptor. */
function propertiesOf(target) {
  const properties = new Map();
  for (const key of Reflect.ownKeys(target)) properties.set(key, Object.getOwnPropertyDescriptor(target, key));
  return properties;
}

const sameDescriptor = (a, b) => Object.is(a.value, b.value) && a.get === b.get && a.set === b.set;

/**
 * What changed between two property maps of `target` (`name` prefixes each key). New globals are
 * not counted: packages add theirs on first use (undici's dispatcher, the AI SDK's settings).
 */
function propertyChanges(name, target, before, after) {
  const changes = [];
  for (const [key, was] of before) {
    const now = after.get(key);
    const label = `${name}.${String(key)}`;
    if (now === undefined) changes.push({ text: `${label} was deleted`, restore: () => Object.defineProperty(target, key, was) });
    else if (!sameDescriptor(was, now)) {
      if (was.get && !('get' in now) && isLazyValue(was.get, target, now.value)) continue;
      changes.push({ text: `${label} was replaced`, restore: () => Object.defineProperty(target, key, was) });
    }
  }
  for (const key of after.keys()) {
    if (!before.has(key) && target !== globalThis) changes.push({ text: `${name}.${String(key)} was added`, restore: () => Reflect.deleteProperty(target, key) });
  }
  return changes;
}

/**
 * Node defines some globals (and process properties) as getters that replace themselves with
 * their value on first use: such a property is unchanged if it holds what the getter gives, or an
 * object of the same kind (process.allowedNodeEnvironmentFlags builds a new class and Set each time).
 */
function isLazyValue(getter, target, value) {
  const fresh = safely(() => getter.call(target));
  if (Object.is(fresh, value)) return true;
  return typeof fresh === 'object' && fresh !== null && typeof value === 'object' && value !== null && fresh.constructor?.name === value.constructor?.name;
}

/** process's own properties but its EventEmitter bookkeeping (`_events`, `_eventsCount`, …). */
function processProperties() {
  const properties = propertiesOf(process);
  for (const key of properties.keys()) if (typeof key === 'string' && key.startsWith('_')) properties.delete(key);
  return properties;
}

function safely(read) {
  try {
    return read();
  } catch {
    return undefined;
  }
}

const running = () => process.getActiveResourcesInfo().filter((resource) => RUNNING.test(resource)).sort();

/** The state a file must leave as it found it. */
export function snapshot() {
  return {
    env: { ...process.env },
    cwd: process.cwd(),
    globals: propertiesOf(globalThis),
    process: processProperties(),
    modules: moduleObjects.map(([, object]) => propertiesOf(object)),
    running: running(),
  };
}

/** Every listener on `process`, by event, once the file's modules are evaluated (see `changesSince`). */
export function listeners() {
  return new Map(process.eventNames().map((event) => [event, process.rawListeners(event)]));
}

/**
 * What differs from `before`, each with how to put it back. Process listeners are compared with
 * `loaded` (taken after the file's modules were evaluated): a helper or source module adds its
 * process-wide hook once, when the first file imports it, and keeps it for every later file. The
 * process's exit code is left alone: a failing test sets it.
 */
export function changesSince(before, loaded) {
  const changes = [];
  const env = process.env;
  for (const [key, value] of Object.entries(before.env)) {
    if (!(key in env)) changes.push({ text: `process.env.${key} was deleted`, restore: () => void (env[key] = value) });
    else if (env[key] !== value) changes.push({ text: `process.env.${key} was changed to ${JSON.stringify(env[key])}`, restore: () => void (env[key] = value) });
  }
  for (const key of Object.keys(env)) {
    if (!(key in before.env)) changes.push({ text: `process.env.${key} was set (to ${JSON.stringify(env[key])})`, restore: () => void delete env[key] });
  }
  const cwd = process.cwd();
  if (cwd !== before.cwd) changes.push({ text: `the working directory is ${cwd}, was ${before.cwd}`, restore: () => process.chdir(before.cwd) });
  changes.push(...propertyChanges('globalThis', globalThis, before.globals, propertiesOf(globalThis)));
  changes.push(...propertyChanges('process', process, before.process, processProperties()));
  moduleObjects.forEach(([name, object], index) => {
    for (const change of propertyChanges(name.replace('/', '.'), object, before.modules[index], propertiesOf(object))) {
      const restore = change.restore;
      // An ESM `import { lookup } from 'node:dns'` sees the module object only once synced.
      changes.push({ ...change, restore: () => (restore(), syncBuiltinESMExports()) });
    }
  });
  if (loaded !== undefined) changes.push(...listenerChanges(loaded));
  const extra = [...running()];
  for (const resource of before.running) {
    const at = extra.indexOf(resource);
    if (at >= 0) extra.splice(at, 1);
  }
  if (extra.length > 0) changes.push({ text: `still running: ${extra.join(', ')}`, restore: () => {} });
  return changes;
}

function listenerChanges(loaded) {
  const changes = [];
  for (const event of process.eventNames()) {
    const had = loaded.get(event) ?? [];
    const added = process.rawListeners(event).filter((listener) => !had.includes(listener));
    if (added.length > 0) {
      changes.push({
        text: `${added.length} more process '${String(event)}' listener${added.length === 1 ? '' : 's'}`,
        restore: () => added.forEach((listener) => process.removeListener(event, listener)),
      });
    }
  }
  return changes;
}

/** True when a child process or server is still running that was not before (they end asynchronously). */
export const stillRunning = (before) => running().length > before.running.length;
