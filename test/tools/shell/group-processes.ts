import { execFileSync } from 'node:child_process';

/** Living (non-zombie) processes whose process group is `groupId`, read with ps. */
export function livingMembersOf(groupId: number): string[] {
  const table = execFileSync('ps', ['-eo', 'pid=,pgid=,stat=,args='], { encoding: 'utf8' });
  return table
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([, group, state]) => Number(group) === groupId && !state?.startsWith('Z'))
    .map((fields) => fields.join(' '));
}

/** Resolves once the group has no living member; fails with the survivors after `withinMs`. */
export async function groupGoneWithin(groupId: number, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (livingMembersOf(groupId).length > 0) {
    if (Date.now() > deadline) throw new Error(`process group ${groupId} still has: ${livingMembersOf(groupId).join('; ')}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Living (non-zombie) processes whose command line holds `token`, read with ps (sandboxed ones too: the host sees them). */
export function livingWith(token: string): string[] {
  const table = execFileSync('ps', ['-eo', 'stat=,args='], { encoding: 'utf8' });
  return table
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.includes(token) && !line.startsWith('Z') && !line.includes('ps -eo'));
}

/** Resolves once no living process holds `token`; fails with the survivors after `withinMs`. */
export async function goneWithin(token: string, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (livingWith(token).length > 0) {
    if (Date.now() > deadline) throw new Error(`still running: ${livingWith(token).join('; ')}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
