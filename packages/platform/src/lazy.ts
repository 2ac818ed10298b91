/**
 * Defines `key` on `target` as made by `create` on first read, then a plain writable property (tests replace parts
 * of a platform by assignment). `opened` hears of each part made, so only those are closed.
 */
export function defineLazy<T extends object, K extends keyof T>(
  target: T,
  key: K,
  create: () => T[K],
  opened?: (value: T[K]) => void,
): void {
  const settle = (value: T[K]) =>
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get() {
      const value = create();
      settle(value);
      opened?.(value);
      return value;
    },
    set(value: T[K]) {
      settle(value);
    },
  });
}
