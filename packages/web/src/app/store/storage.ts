// What the app keeps in this browser (localStorage): the last canteen, the price group, the filter while signed out,
// and the taps waiting to be sent. Never a token (those stay in sessionStorage, as on the other pages). A full or
// refused storage loses the keeping, never the app.
const prefix = 'canteen-meals.app.';

export function readKept(name: string): unknown {
  try {
    const text = localStorage.getItem(prefix + name);
    return text === null ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

export function keep(name: string, value: unknown): void {
  try {
    localStorage.setItem(prefix + name, JSON.stringify(value));
  } catch {
    // Private mode, a full quota: the app works on without it.
  }
}
