// Runs lab sessions a few at a time: each session is a client process plus a mock server, so two
// at a time keep both cores of a CI machine busy without starving either oracle.

/**
 * Runs `tasks` with at most `jobs` at a time, calling `done` as each ends, in any order.
 * @template T
 * @param {(() => Promise<T>)[]} tasks
 * @param {number} jobs
 * @param {(index: number, result: T) => void} done
 */
export async function pool(tasks, jobs, done) {
  if (!Number.isInteger(jobs) || jobs < 1) throw new Error(`--jobs: expected a whole number of at least 1, got ${jobs}`);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next;
      next += 1;
      done(index, await tasks[index]());
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, tasks.length) }, worker));
}
