// Input handling that never blocks typing: the work waits until typing pauses, long work is
// cut into steps run one per task, and each run is timed with a `performance` measure so a
// test (or a profiler) can see how long a frame took.

/** How long typing must pause before the work runs, in milliseconds. */
export const TYPING_PAUSE_MS = 150;

/**
 * Runs `work` once typing has paused for `TYPING_PAUSE_MS`.
 * @param {() => void} work
 * @returns {{ schedule: () => void, now: () => void }} `schedule` on every keystroke; `now`
 *   when the run should not wait (a button, the first render)
 */
export function debouncedWork(work) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const now = () => {
    clearTimeout(timer);
    timer = undefined;
    work();
  };
  return {
    schedule: () => {
      clearTimeout(timer);
      timer = setTimeout(now, TYPING_PAUSE_MS);
    },
    now,
  };
}

/**
 * Runs `work` between two marks and records the run as the measure `name`.
 * @param {string} name
 * @param {() => void} work
 */
export function measured(name, work) {
  const start = `${name}:start`;
  performance.mark(start);
  try {
    work();
  } finally {
    performance.measure(name, start);
    performance.clearMarks(start);
  }
}

/**
 * Runs `steps` one per task, each measured as `name`, so the page can paint and take input
 * between them; returns the call that drops the steps not yet run.
 * @param {string} name
 * @param {(() => void)[]} steps
 * @returns {() => void}
 */
export function inFrames(name, steps) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const run = (/** @type {number} */ index) => {
    if (index >= steps.length) return;
    measured(name, steps[index]);
    timer = setTimeout(() => run(index + 1));
  };
  run(0);
  return () => clearTimeout(timer);
}
