/**
 * Counts a request's D1 round trips (each statement run, each batch as one), for the Workers tests only
 * (server.ts wraps the binding when ENVIRONMENT is "test"): a page's budget of queries is then asserted,
 * not timed, so it holds on a busy machine.
 */
export function countRoundTrips(db: D1Database): { db: D1Database; count: () => number } {
  let trips = 0;
  const real = new WeakMap<object, D1PreparedStatement>();
  const RUNS = new Set<PropertyKey>(["first", "all", "run", "raw"]);
  const statement = (s: D1PreparedStatement): D1PreparedStatement => {
    const wrapped = new Proxy(s, {
      get(target, key) {
        const value = Reflect.get(target, key) as unknown;
        if (typeof value !== "function") return value;
        if (key === "bind") return (...args: unknown[]) => statement(value.apply(target, args) as D1PreparedStatement);
        if (RUNS.has(key)) trips++;
        return value.bind(target);
      },
    });
    real.set(wrapped, s);
    return wrapped;
  };
  const counted = new Proxy(db, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== "function") return value;
      if (key === "prepare") return (query: string) => statement(target.prepare(query));
      if (key === "batch")
        return (list: D1PreparedStatement[]) => {
          trips++;
          return target.batch(list.map((s) => real.get(s) ?? s));
        };
      return value.bind(target);
    },
  });
  return { db: counted, count: () => trips };
}

/**
 * Counts a request's reads of company activity logs (app/durable/company-log.ts): each statement or batch
 * sent to a company's store is one round trip (the store's catch-up with D1 happens on its side).
 */
export function countLogRoundTrips<T extends Rpc.DurableObjectBranded>(ns: DurableObjectNamespace<T>): { ns: DurableObjectNamespace<T>; count: () => number } {
  let trips = 0;
  const READS = new Set<PropertyKey>(["query", "batch"]);
  const counted = new Proxy(ns, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== "function") return value;
      if (key !== "get") return value.bind(target);
      return (...args: Parameters<DurableObjectNamespace<T>["get"]>) =>
        new Proxy(target.get(...args), {
          get(stub, name) {
            if (READS.has(name)) trips++;
            return Reflect.get(stub, name);
          },
        });
    },
  });
  return { ns: counted, count: () => trips };
}
