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
