/** The error a tool call ends with when its checkpoint could not be taken: the change was not made. */
export function notRun(error: unknown): Error {
  return new Error(`Not done: no checkpoint could be taken first, so /undo could not reverse it (${reasonOf(error)}). Nothing was changed; fix that, or make the change by hand.`);
}

/** Why a checkpoint could not be taken or kept, in the user's words. */
export function reasonOf(error: unknown): string {
  const failure = error as NodeJS.ErrnoException;
  if (failure.code === 'ENOSPC') return 'the disk holding Sylvan\'s checkpoints is full';
  if (failure.code === 'EDQUOT') return 'the disk quota of Sylvan\'s checkpoints is used up';
  return failure.message ?? String(error);
}
