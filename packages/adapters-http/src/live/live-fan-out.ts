/**
 * Where a stream's frames wait until they are written. A frame has a key: the state it carries (`availability:<meal>`,
 * `stats:<meal>`, `snapshot`). A stream that has not been written to since a frame of the same key was queued gets the
 * later frame in its place (the last state wins), so a burst of changes costs each stream at most one frame per key;
 * a snapshot holds every meal's state, so it replaces whatever the stream still waits for. Frames of other keys keep
 * their order (a replaced frame moves to the end, so event ids only grow along a stream).
 */
export interface FanOutStream {
  /** Writes the text of one or more frames in one go. */
  send(frames: string): void;
  /** True while the socket holds bytes its client has not taken: the stream then waits, and coalesces, until it drains. */
  readonly backedUp?: boolean;
}

/** Runs a callback on a later turn of the event loop, after the I/O waiting now (setImmediate). */
export type Defer = (callback: () => void) => void;

export const snapshotKey = 'snapshot';

/**
 * Writes the queued frames of many streams, `batchSize` streams per turn of the event loop, yielding between turns so
 * that the requests waiting meanwhile are served: a burst of changes with thousands of streams open is spread over
 * turns instead of holding the process for the whole fan-out.
 */
export class LiveFanOut<S extends FanOutStream> {
  private readonly outboxes = new Map<S, Map<string, string>>();
  /** Streams with frames to write and a socket that takes them, in the order they became due. */
  private readonly due = new Set<S>();
  private scheduled = false;

  constructor(
    private readonly defer: Defer,
    private readonly batchSize: number,
  ) {}

  /** Frames waiting over every stream: what a burst holds in memory (each at most one per key and stream). */
  get waiting(): number {
    let frames = 0;
    for (const outbox of this.outboxes.values()) frames += outbox.size;
    return frames;
  }

  /** Queues `frame` under `key` for each stream, in place of a frame of that key it still waits for. */
  queue(streams: Iterable<S>, key: string, frame: string): void {
    for (const stream of streams) {
      let outbox = this.outboxes.get(stream);
      if (outbox === undefined) {
        outbox = new Map();
        this.outboxes.set(stream, outbox);
      }
      if (key === snapshotKey) outbox.clear();
      else outbox.delete(key);
      outbox.set(key, frame);
      if (stream.backedUp !== true) this.due.add(stream);
    }
    this.schedule();
  }

  /** The stream's socket drained: what it waits for is written on a coming turn. */
  drained(stream: S): void {
    if ((this.outboxes.get(stream)?.size ?? 0) === 0) return;
    this.due.add(stream);
    this.schedule();
  }

  /** The stream ended: its waiting frames go with it. */
  forget(stream: S): void {
    this.outboxes.delete(stream);
    this.due.delete(stream);
  }

  private schedule(): void {
    if (this.scheduled || this.due.size === 0) return;
    this.scheduled = true;
    this.defer(this.writeBatch);
  }

  private readonly writeBatch = (): void => {
    this.scheduled = false;
    let written = 0;
    for (const stream of this.due) {
      if (written >= this.batchSize) break;
      this.due.delete(stream);
      // A stream that backed up since it became due waits for its drain, coalescing meanwhile.
      if (stream.backedUp === true) continue;
      const outbox = this.outboxes.get(stream);
      if (outbox === undefined || outbox.size === 0) continue;
      let frames = '';
      for (const frame of outbox.values()) frames += frame;
      outbox.clear();
      stream.send(frames);
      written += 1;
    }
    this.schedule();
  };
}
