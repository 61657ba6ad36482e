/**
 * Passes on at most one update per `intervalMs`, plus every change of stage: the decoder reports
 * each 1 MB chunk, which on a fast disk is hundreds of messages a second nobody can see.
 */
export function throttleProgress<T extends { stage: string }>(
  send: (update: T) => void,
  intervalMs: number,
  now: () => number = () => performance.now(),
): (update: T) => void {
  let lastSentAt = -Infinity;
  let lastStage: string | null = null;
  return (update) => {
    const time = now();
    if (update.stage === lastStage && time - lastSentAt < intervalMs) return;
    lastSentAt = time;
    lastStage = update.stage;
    send(update);
  };
}
