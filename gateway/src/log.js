/**
 * One JSON line per log record on stderr, so logs stay machine-readable and stdout stays free for CLIs.
 * LOG_LEVEL: debug | info | warn | error (default info).
 */
const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 }

/** @param {string} name @param {Record<string, unknown>} [base] */
export function createLogger(name, base = {}) {
  const min = LEVELS[process.env.LOG_LEVEL ?? 'info'] ?? LEVELS.info
  /** @param {keyof LEVELS} level */
  const at =
    (level) =>
    (msg, fields = {}) => {
      if (LEVELS[level] < min) return
      process.stderr.write(JSON.stringify({ t: new Date().toISOString(), level, name, msg, ...base, ...fields }) + '\n')
    }
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }
}

/** @typedef {ReturnType<typeof createLogger>} Logger */
