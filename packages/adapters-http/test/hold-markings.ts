import type { createInMemoryAdapters } from '@canteen-meals/adapters-memory';

/**
 * Holds every marking in its handler until `release()`: `inHandler` resolves once one has arrived, so a test can act
 * while a request is in flight (closing the app, sending another).
 */
export function holdMarkings(adapters: ReturnType<typeof createInMemoryAdapters>) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let entered!: () => void;
  const inHandler = new Promise<void>((resolve) => (entered = resolve));
  const setMarked = adapters.markings.setMarked.bind(adapters.markings);
  adapters.markings.setMarked = async (...args) => {
    entered();
    await gate;
    return setMarked(...args);
  };
  return { inHandler, release };
}
