import type { CancelSignal } from './feed-ports.js';

/**
 * A CancelSignal the domain fires itself (a scheduled fetch's deadline), and that fires with a `parent` (the service
 * stopping) until released. The domain has no AbortController: it runs without Node's or a browser's globals.
 */
export class CancelSwitch implements CancelSignal {
  private readonly listeners = new Set<() => void>();
  private fired = false;
  private readonly fireWithParent = () => this.cancel();

  constructor(private readonly parent?: CancelSignal) {
    if (parent?.aborted) this.fired = true;
    else parent?.addEventListener('abort', this.fireWithParent, { once: true });
  }

  get aborted(): boolean {
    return this.fired;
  }

  /** Fires once; listeners added after that are not called, as with an AbortSignal (they read `aborted` first). */
  cancel(): void {
    if (this.fired) return;
    this.fired = true;
    const listeners = [...this.listeners];
    this.listeners.clear();
    for (const listener of listeners) listener();
  }

  /** Stops following the parent (the fetch ended): a long-lived parent does not keep a listener per fetch. */
  release(): void {
    this.parent?.removeEventListener('abort', this.fireWithParent);
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.fired) this.listeners.add(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    this.listeners.delete(listener);
  }
}
