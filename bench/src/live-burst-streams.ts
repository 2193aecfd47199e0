import { Agent, request as httpRequest } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

/**
 * The live burst's streams, held in a worker thread of their own: reading hundreds of thousands of events must not
 * delay the main thread's event loop, where the probe's round trips are timed. Each stream keeps the last
 * `availability` of each meal, found by a scan of the text (no JSON parse per event: cheap enough not to starve the
 * server of its core).
 */
export interface StreamsRequest {
  readonly url: string;
  readonly streams: number;
}

export type StreamsMessage =
  | { readonly kind: 'opened'; readonly failures: readonly string[] }
  | {
      readonly kind: 'state';
      readonly states: readonly (readonly [number, string])[][];
      readonly events: number;
      readonly ended: number;
    };

/** `"meal_id":N,"availability":"S"`: the head of an availability event's data. */
const availabilityOf = /"meal_id":(\d+),"availability":"(\w+)"/g;

interface HeldStream {
  readonly states: Map<number, string>;
  ended: boolean;
  close(): void;
}

if (parentPort !== null) {
  const port = parentPort;
  const { url, streams: count } = workerData as StreamsRequest;
  const agent = new Agent({ keepAlive: true, maxSockets: count + 16 });
  const held: HeldStream[] = [];
  let events = 0;

  const open = (): Promise<string | undefined> =>
    new Promise((resolve) => {
      const stream: HeldStream = { states: new Map(), ended: false, close: () => request.destroy() };
      let snapshot = false;
      const request = httpRequest(url, { agent, headers: { accept: 'text/event-stream' } }, (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          resolve(`status ${response.statusCode}`);
          return;
        }
        held.push(stream);
        response.setEncoding('utf8');
        let pending = '';
        response.on('data', (chunk: string) => {
          const text = pending + chunk;
          const end = text.lastIndexOf('\n\n');
          if (end < 0) {
            pending = text;
            return;
          }
          pending = text.slice(end + 2);
          const complete = text.slice(0, end);
          events += countOf(complete, 'event: availability');
          // A snapshot (rare: the first frame, or after a menu change) is read whole, frame by frame.
          const frames = complete.includes('event: snapshot') ? complete.split('\n\n') : [complete];
          for (const frame of frames) {
            if (frame.includes('event: snapshot')) {
              const data = JSON.parse(/^data: (.*)$/m.exec(frame)![1]!) as {
                meals: { meal_id: number; availability: string }[];
              };
              for (const meal of data.meals) stream.states.set(meal.meal_id, meal.availability);
              if (!snapshot) {
                snapshot = true;
                resolve(undefined);
              }
            } else for (const match of frame.matchAll(availabilityOf)) stream.states.set(Number(match[1]), match[2]!);
          }
        });
        response.on('close', () => {
          stream.ended = true;
          resolve('the server ended the stream before its snapshot');
        });
      });
      request.on('error', (error) => resolve(`request error: ${error.message}`));
      request.end();
    });

  port.on('message', async (message: 'open' | 'state' | 'close') => {
    if (message === 'open') {
      const failures: string[] = [];
      for (let first = 0; first < count; first += 250) {
        const opened = await Promise.all(Array.from({ length: Math.min(250, count - first) }, open));
        failures.push(...opened.filter((failure): failure is string => failure !== undefined));
        if (failures.length > 0) break;
      }
      port.postMessage({ kind: 'opened', failures } satisfies StreamsMessage);
    } else if (message === 'state') {
      const states = held.map((stream) => [...stream.states]);
      port.postMessage({
        kind: 'state',
        states,
        events,
        ended: held.filter((stream) => stream.ended).length,
      } satisfies StreamsMessage);
    } else {
      for (const stream of held) stream.close();
      agent.destroy();
      port.close();
    }
  });
}

function countOf(text: string, what: string): number {
  let n = 0;
  for (let at = text.indexOf(what); at >= 0; at = text.indexOf(what, at + what.length)) n += 1;
  return n;
}
