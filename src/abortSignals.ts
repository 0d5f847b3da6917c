// Composing AbortSignals: one that fires when any of several does (a run's interrupt, a tariff's
// failure, an attempt's deadline), and one that fires after a wall-clock time. Each comes with
// dispose(), so listeners and timers on long-lived signals do not pile up.

export interface DisposableSignal {
  signal: AbortSignal;
  dispose(): void;
}

/** Aborted (with the first one's reason) as soon as any of `signals` is. */
export function anySignal(signals: readonly (AbortSignal | undefined)[]): DisposableSignal {
  const controller = new AbortController();
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  const already = present.find((s) => s.aborted);
  if (already) {
    controller.abort(already.reason);
    return { signal: controller.signal, dispose: () => undefined };
  }
  const listeners = present.map((s) => {
    const onAbort = () => controller.abort(s.reason);
    s.addEventListener('abort', onAbort, { once: true });
    return () => s.removeEventListener('abort', onAbort);
  });
  return { signal: controller.signal, dispose: () => listeners.forEach((remove) => remove()) };
}

/** Aborted with `reason()` after `ms` (never, for Infinity); the timer does not keep Node alive. */
export function deadlineSignal(ms: number, reason: () => unknown): DisposableSignal & { expired: () => boolean } {
  const controller = new AbortController();
  let expired = false;
  const timer = Number.isFinite(ms)
    ? setTimeout(() => {
      expired = true;
      controller.abort(reason());
    }, Math.max(0, ms))
    : undefined;
  timer?.unref();
  return { signal: controller.signal, expired: () => expired, dispose: () => clearTimeout(timer) };
}
