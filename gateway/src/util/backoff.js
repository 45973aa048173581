/** Exponential backoff with full jitter: 200 ms, 400 ms, … capped at 30 s. */
export function backoff (attempt, { baseMs = 200, maxMs = 30_000 } = {}) {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(attempt - 1, 20))
  return Math.round(ceiling / 2 + Math.random() * ceiling / 2)
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
