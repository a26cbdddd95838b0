/** The item at `index`, or a clear failure when there is none (instead of a non-null assertion). */
export function nth<T>(items: ArrayLike<T>, index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`Expected an item at index ${index}; there are ${items.length}.`);
  return item;
}
