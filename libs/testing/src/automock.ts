/**
 * A mock of a class built from its prototype (as immich's `newTestService` does): every method,
 * own or inherited, becomes a `jest.fn()`, typed as the class's. A unit test then sets only what it
 * needs (`repo.findById.mockResolvedValue(row)`), and a method added to the class needs no change
 * to a hand-written fake; a method renamed or removed is a compile error in the test that uses it.
 */
export function automock<T extends object>(cls: abstract new (...args: never[]) => T): jest.Mocked<T> {
  const mock: Record<string, jest.Mock> = {};
  for (let proto = cls.prototype as object | null; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      const descriptor = Object.getOwnPropertyDescriptor(proto, key);
      if (key === 'constructor' || key in mock || typeof descriptor?.value !== 'function') continue;
      mock[key] = jest.fn();
    }
  }
  return mock as unknown as jest.Mocked<T>;
}
