/** Exponential backoff with jitter: a random wait between half and all of 200 ms, 400 ms, … capped at 30 s. */
export function backoff(attempt, { baseMs = 200, maxMs = 30_000 } = {}) {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(attempt - 1, 20))
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2)
}
