import { readlinkSync } from 'node:fs';

/** An IANA zone name as TZ or /etc/localtime spell it: "Asia/Shanghai", "UTC", "America/Argentina/Buenos_Aires". */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

/**
 * This machine's time zone, read where the C library and ICU read it (`TZ`, else the zone file
 * `/etc/localtime` links to) before asking `Intl`: its first use costs ~6% of a print-mode run's
 * CPU (ICU loads its zone data), and a run that never tells a time should not pay it. A name found
 * this way is only a guess until `Intl` accepts it (the tool checks, see `current-time.ts`).
 */
export function localTimeZone(env: NodeJS.ProcessEnv = process.env, zoneLink: () => string = () => readlinkSync('/etc/localtime')): string {
  const fromEnv = env.TZ?.replace(/^:/, '');
  if (fromEnv !== undefined && fromEnv !== '') return ZONE_NAME.test(fromEnv) ? fromEnv : intlTimeZone();
  try {
    const linked = /\/zoneinfo\/(.+)$/.exec(zoneLink())?.[1];
    if (linked !== undefined && ZONE_NAME.test(linked)) return linked;
  } catch {
    // No link (Windows, a copied zone file): ask Intl.
  }
  return intlTimeZone();
}

/** What ICU says the zone is. */
export const intlTimeZone = (): string => new Intl.DateTimeFormat().resolvedOptions().timeZone;
