/**
 * Where a stream's frames go, and whether it can take them now. A frame has a key: the state it carries
 * (`availability:<meal>`, `stats:<meal>`, `snapshot`, `heartbeat`).
 */
export interface FanOutStream {
  /** Writes the text of one or more frames in one go. */
  send(frames: string): void;
  /**
   * True while the socket holds bytes its client has not taken: the stream then waits, and coalesces, until it drains.
   */
  readonly backedUp?: boolean;
}

/** Runs a callback on a later turn of the event loop, after the I/O waiting now (setImmediate). */
export type Defer = (callback: () => void) => void;

/**
 * Passes over a channel's streams begin at most once per `intervalMs`: the first change after a quiet moment goes out
 * at once, the changes of a burst wait for the next pass and are coalesced meanwhile.
 */
export interface FanOutPacing {
  readonly intervalMs: number;
  readonly setTimeout: (callback: () => void, ms: number) => unknown;
}

export const snapshotKey = 'snapshot';

/** The streams of one channel and the last frame of each key queued to them, in the order they were queued. */
interface Group<S> {
  readonly channel: object;
  /** Number of the last frame queued. */
  n: number;
  /** One entry per key, oldest first (a replaced key moves to the end); a snapshot clears what came before it. */
  readonly latest: Map<string, { readonly n: number; readonly frame: string }>;
  readonly streams: Set<S>;
  /** Whether a pass over its streams is under way or waiting. */
  passing: boolean;
  /** Whether the last pass began less than the pacing's interval ago. */
  cooling: boolean;
  /** The text sent to streams written up to a number, while `n` stays: one string shared by the streams of a pass. */
  readonly texts: Map<number, string>;
  textsAt: number;
}

interface Pass<S> {
  readonly group: Group<S>;
  readonly streams: readonly S[];
  index: number;
  /** The group's `n` when the pass began: frames queued later may have missed the streams written early. */
  readonly startedAt: number;
}

/**
 * Writes the frames of many streams, `batchSize` streams per turn of the event loop, yielding between turns so that
 * the requests waiting meanwhile are served: a burst of changes with thousands of streams open is spread over turns
 * instead of holding the process for the whole fan-out.
 *
 * Coalescing: each stream remembers the number of the last frame written to it; when its turn comes it gets, per key,
 * the last frame queued since (the last state wins), in the order they were queued (so event ids only grow along a
 * stream), and a snapshot in place of everything before it. Queueing a frame costs the same whatever the number of
 * streams, and a burst costs each stream at most one frame per key per write. A stream whose socket is full is
 * skipped, holds back no other, and gets the last states once it drains.
 */
export class LiveFanOut<S extends FanOutStream> {
  private readonly groups = new Map<object, Group<S>>();
  private readonly cursors = new Map<S, { readonly group: Group<S>; written: number }>();
  private readonly passes: Pass<S>[] = [];
  private readonly drainedStreams = new Set<S>();
  private scheduled = false;

  constructor(
    private readonly defer: Defer,
    private readonly batchSize: number,
    private readonly pacing?: FanOutPacing,
  ) {}

  /** Streams that have frames waiting (a socket that is full, or a pass that has not reached them yet). */
  get streamsBehind(): number {
    let behind = 0;
    for (const cursor of this.cursors.values()) if (cursor.written < cursor.group.n) behind += 1;
    return behind;
  }

  /** A stream of `channel` joins, up to date with what was queued before (it was sent its catch-up on its own). */
  join(channel: object, stream: S): void {
    let group = this.groups.get(channel);
    if (group === undefined) {
      group = {
        channel,
        n: 0,
        latest: new Map(),
        streams: new Set(),
        passing: false,
        cooling: false,
        texts: new Map(),
        textsAt: 0,
      };
      this.groups.set(channel, group);
    }
    group.streams.add(stream);
    this.cursors.set(stream, { group, written: group.n });
  }

  /** The stream ended: nothing more is written to it; a channel without streams is forgotten. */
  leave(stream: S): void {
    const cursor = this.cursors.get(stream);
    if (cursor === undefined) return;
    this.cursors.delete(stream);
    this.drainedStreams.delete(stream);
    cursor.group.streams.delete(stream);
    if (cursor.group.streams.size === 0 && this.groups.get(cursor.group.channel) === cursor.group) {
      this.groups.delete(cursor.group.channel);
    }
  }

  /** Queues `frame` under `key` for every stream of `channel`, in place of a frame of that key not yet written. */
  queue(channel: object, key: string, frame: string): void {
    const group = this.groups.get(channel);
    if (group === undefined) return;
    group.n += 1;
    if (key === snapshotKey) group.latest.clear();
    else group.latest.delete(key);
    group.latest.set(key, { n: group.n, frame });
    if (!group.passing && !group.cooling) this.startPass(group);
  }

  /** Queues `frame` under `key` for every stream of every channel (the heartbeat). */
  queueEverywhere(key: string, frame: string): void {
    for (const channel of this.groups.keys()) this.queue(channel, key, frame);
  }

  /** The stream's socket drained: what it has missed meanwhile is written on a coming turn. */
  drained(stream: S): void {
    const cursor = this.cursors.get(stream);
    if (cursor === undefined || cursor.written >= cursor.group.n) return;
    this.drainedStreams.add(stream);
    this.schedule();
  }

  private startPass(group: Group<S>): void {
    group.passing = true;
    const startedAt = group.n;
    this.passes.push({ group, streams: [...group.streams], index: 0, startedAt });
    this.schedule();
    if (this.pacing === undefined) return;
    group.cooling = true;
    this.pacing.setTimeout(() => {
      group.cooling = false;
      if (!group.passing && group.n > startedAt && group.streams.size > 0) this.startPass(group);
    }, this.pacing.intervalMs);
  }

  private schedule(): void {
    if (this.scheduled || (this.passes.length === 0 && this.drainedStreams.size === 0)) return;
    this.scheduled = true;
    this.defer(this.writeBatch);
  }

  private readonly writeBatch = (): void => {
    this.scheduled = false;
    let written = 0;
    for (const stream of this.drainedStreams) {
      if (written >= this.batchSize) break;
      this.drainedStreams.delete(stream);
      if (this.write(stream)) written += 1;
    }
    while (written < this.batchSize && this.passes.length > 0) {
      const pass = this.passes[0]!;
      while (written < this.batchSize && pass.index < pass.streams.length) {
        if (this.write(pass.streams[pass.index++]!)) written += 1;
      }
      if (pass.index < pass.streams.length) break;
      this.passes.shift();
      pass.group.passing = false;
      // Frames queued during the pass reached only the streams written after them: another pass for the others
      // (once the interval is over, when paced).
      if (pass.group.n > pass.startedAt && pass.group.streams.size > 0 && !pass.group.cooling)
        this.startPass(pass.group);
    }
    this.schedule();
  };

  /** Writes what the stream has not been written yet; answers whether it wrote. */
  private write(stream: S): boolean {
    const cursor = this.cursors.get(stream);
    if (cursor === undefined || cursor.written >= cursor.group.n || stream.backedUp === true) return false;
    stream.send(this.textSince(cursor.group, cursor.written));
    cursor.written = cursor.group.n;
    return true;
  }

  private textSince(group: Group<S>, written: number): string {
    if (group.textsAt !== group.n) {
      group.texts.clear();
      group.textsAt = group.n;
    }
    let text = group.texts.get(written);
    if (text === undefined) {
      text = '';
      for (const entry of group.latest.values()) if (entry.n > written) text += entry.frame;
      group.texts.set(written, text);
    }
    return text;
  }
}
