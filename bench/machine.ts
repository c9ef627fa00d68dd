import { cpus, loadavg, platform, release, totalmem, arch } from 'node:os';

/** The machine as a benchmark reader needs it: CPU, cores, memory, OS, Node, and how busy it was. */
export function describeMachine(options: { loadOnly?: boolean } = {}): string {
  const load = loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');
  if (options.loadOnly) return load;
  const processors = cpus();
  return [
    `${processors[0]?.model.trim() ?? 'unknown CPU'} × ${processors.length}`,
    `${(totalmem() / 1024 ** 3).toFixed(1)} GB`,
    `${platform()} ${release()} ${arch()}`,
    `Node ${process.version}`,
    `load average ${load} (1, 5, 15 min)`,
  ].join(' · ');
}
