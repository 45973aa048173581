import type { Db } from "./db.server";

type BatchItem = Parameters<Db["batch"]>[0][number];

/**
 * Collects statements that several readers need into one `db.batch` (one D1 round trip): `add` returns
 * a reader of that statement's rows in the batch's results, typed as the statement alone would be.
 * `run` sends the batch once; every later call answers with the same results.
 */
export function batchOf(db: Db) {
  const items: BatchItem[] = [];
  let sent: Promise<readonly unknown[]> | null = null;
  return {
    add<Q extends BatchItem>(q: Q): (results: readonly unknown[]) => Awaited<Q> {
      if (sent) throw new Error("batchOf: add after run");
      const i = items.push(q) - 1;
      return (results) => results[i] as Awaited<Q>;
    },
    run(): Promise<readonly unknown[]> {
      sent ??= items.length ? db.batch(items as [BatchItem, ...BatchItem[]]) : Promise.resolve([]);
      return sent;
    },
  };
}
export type Batch = ReturnType<typeof batchOf>;
