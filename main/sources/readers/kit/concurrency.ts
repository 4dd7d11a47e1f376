/** Bounded concurrency for the many small file calls of a discovery walk (stats and header reads). */

/** Maps every item through `work`, at most `limit` calls in flight, and answers in item order. */
export async function mapBounded<Item, Result>(items: readonly Item[], limit: number, work: (item: Item, index: number) => Promise<Result>): Promise<Result[]> {
  const results: Result[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
