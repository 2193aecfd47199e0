import type { ServerResponse } from 'node:http';
import { getMenuRefusals, type GetPublicMenu, type MenuChangeHub } from '@canteen-meals/domain';
import { LiveQuery, LiveSnapshotData, routePaths } from '@canteen-meals/http-contract';
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { sendRefusal, wireCodesOf } from '../error-mapping.js';
import { HttpError } from '../http-error.js';
import { LiveStats, realTimers, type LiveScheduler, type LiveSubscriber } from '../live/live-stats.js';
import { errorResponses, publicRouteErrors } from '../schemas/error-responses.js';
import { localDateOf } from './read-params.js';

/** The live streams of an instance: how many, how often, and how much a slow reader may hold. */
export interface LiveOptions {
  /** Open streams per instance; one more answers 503 `service_unavailable` (another instance may have room). */
  readonly maxStreams: number;
  /** Open streams per client address (as `trustProxy` determines it); one more answers 429 `rate_limited`. */
  readonly maxStreamsPerAddress: number;
  /** A `: heartbeat` comment goes to every stream this often. */
  readonly heartbeatMs: number;
  /** A meal's `stats` events are at least this far apart (250: at most 4 a second). */
  readonly coalesceMs: number;
  /** A stream whose unsent bytes exceed this is dropped: its client does not keep up, and memory must not grow. */
  readonly maxBufferedBytes: number;
  /** The timers of the windows and the heartbeat; default: Node's. */
  readonly scheduler?: LiveScheduler;
  /** Hands out the registry once built: its counts of streams and channels, for metrics and tests. */
  readonly observe?: (live: LiveStats) => void;
}

/**
 * 5000 streams of a few kilobytes of buffers each stay far below the memory an instance is given (see the README's
 * Memory section); 20 per address leaves room for a household or an office behind one NAT, not for one client
 * opening streams in a loop.
 */
export const defaultLiveOptions: LiveOptions = {
  maxStreams: 5000,
  maxStreamsPerAddress: 20,
  heartbeatMs: 15_000,
  coalesceMs: 250,
  maxBufferedBytes: 64 * 1024,
};

export interface LiveRoutesOptions {
  readonly getPublicMenu: GetPublicMenu;
  /**
   * Every change the registry follows comes from this hub: the writes of this process, and whatever another source
   * (PostgreSQL LISTEN/NOTIFY across instances) publishes into it.
   */
  readonly menuChanges: MenuChangeHub;
  readonly live?: Partial<LiveOptions> | undefined;
}

/** Past the envelope's refusals, what a stream answers: proxies must pass each event on at once. */
const streamHeaders = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
  connection: 'keep-alive',
} as const;

const retryAfterS = 10;

/** GET /live?canteen=ID&date=YYYY-MM-DD: a day's statistics as Server-Sent Events (public). */
export const liveRoutes: FastifyPluginAsyncTypebox<LiveRoutesOptions> = async (app, options) => {
  const settings: LiveOptions = { ...defaultLiveOptions, ...options.live };
  const live = new LiveStats((days) => options.getPublicMenu.execute(days), {
    coalesceMs: settings.coalesceMs,
    heartbeatMs: settings.heartbeatMs,
    replayEvents: 256,
    scheduler: settings.scheduler ?? realTimers,
  });
  settings.observe?.(live);
  const unsubscribe = options.menuChanges.subscribe(live.onChange);
  // Before the server waits for its connections: an open stream would hold the close until its client leaves.
  app.addHook('preClose', (done) => {
    live.close();
    done();
  });
  app.addHook('onClose', async () => unsubscribe());

  // Streams counted from the moment they are asked for, so that many opening at once cannot pass the limits together.
  let open = 0;
  const perAddress = new Map<string, number>();
  const reserve = (address: string): (() => void) => {
    if (open >= settings.maxStreams) {
      throw new HttpError('service_unavailable', 'This instance serves as many live streams as it can; retry later.', {
        'retry-after': String(retryAfterS),
      });
    }
    const ofAddress = perAddress.get(address) ?? 0;
    if (ofAddress >= settings.maxStreamsPerAddress) {
      throw new HttpError('rate_limited', `Too many live streams from one address (${settings.maxStreamsPerAddress}).`, {
        'retry-after': String(retryAfterS),
      });
    }
    open += 1;
    perAddress.set(address, ofAddress + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      open -= 1;
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left === 0) perAddress.delete(address);
      else perAddress.set(address, left);
    };
  };

  app.get(
    routePaths.liveStatistics,
    {
      schema: {
        operationId: 'streamLiveStatistics',
        summary:
          "A canteen's day as Server-Sent Events (public): a `snapshot` event with every meal's statistics, then a `stats` event per meal whose statistics changed (at most 4 a second per meal); `Last-Event-ID` resumes",
        tags: ['canteens'],
        security: [],
        querystring: LiveQuery,
        response: {
          200: {
            description:
              'text/event-stream: `event: snapshot` (data: `{"meals":[...]}`, every meal) first and whenever the menu changes, ' +
              '`event: stats` (data: one meal) when its figures change; every event has an `id` for `Last-Event-ID`; a ' +
              '`: heartbeat` comment every 15 s. Refusals come before the stream, in the JSON envelope.',
            content: {
              'text/event-stream': {
                schema: Type.String({ description: `Events whose data is ${JSON.stringify(Object.keys(LiveSnapshotData.properties))} or one meal's figures` }),
              },
            },
          },
          ...errorResponses([...publicRouteErrors, 'invalid_request', ...wireCodesOf(getMenuRefusals)]),
        },
      },
    },
    async (request, reply) => {
      const { canteen, date } = request.query;
      if (canteen === undefined) throw new HttpError('invalid_request', 'missing query parameter "canteen"');
      if (date === undefined) throw new HttpError('invalid_request', 'missing query parameter "date"');
      const day = localDateOf(date);
      const release = reserve(normalizeIP(request.ip));
      let started = false;
      try {
        const header = request.headers['last-event-id'];
        const lastEventId = typeof header === 'string' ? header : undefined;
        const joined = await live.subscribe({ canteenId: canteen, from: day, to: day }, lastEventId, () => {
          if (reply.raw.destroyed) return undefined;
          started = true;
          return startStream(reply, settings.maxBufferedBytes, (subscriber, dropped) => {
            live.leave(subscriber);
            release();
            if (dropped) request.log.info({ canteen, date }, 'live stream dropped: its client does not keep up');
          });
        });
        if (!joined.ok) return sendRefusal(reply, joined.refusal);
        if (!started) throw new HttpError('service_unavailable', 'The server is shutting down; retry on another connection.');
        return reply;
      } finally {
        if (!started) release();
      }
    },
  );
};

/**
 * Takes the answer from Fastify and begins the event stream on the socket: the headers the hooks have set (security
 * headers, request id, CORS, rate limit) and the stream's own. Nothing is buffered beyond `maxBufferedBytes`: a stream
 * whose client reads slower than events come is dropped (the client reconnects with Last-Event-ID when it can).
 */
function startStream(
  reply: FastifyReply,
  maxBufferedBytes: number,
  onEnd: (subscriber: LiveSubscriber, dropped: boolean) => void,
): LiveSubscriber {
  reply.hijack();
  const response = reply.raw;
  const headers = Object.fromEntries(Object.entries(reply.getHeaders()).filter(([, value]) => value !== undefined));
  response.writeHead(200, { ...headers, ...streamHeaders });
  // Node holds the headers back until the first write, and a stream resumed without a missed event writes nothing yet.
  response.flushHeaders();
  let dropped = false;
  const subscriber = sseSubscriber(response, maxBufferedBytes, () => (dropped = true));
  response.on('close', () => onEnd(subscriber, dropped));
  return subscriber;
}

/** Writes frames to a response; one that holds more than `maxBufferedBytes` unsent is destroyed, and `onDrop` told. */
export function sseSubscriber(
  response: Pick<ServerResponse, 'write' | 'end' | 'destroy' | 'destroyed' | 'writableEnded' | 'writableLength' | 'socket'>,
  maxBufferedBytes: number,
  onDrop: () => void,
): LiveSubscriber {
  return {
    send(frame) {
      if (response.destroyed || response.writableEnded) return;
      // writableLength counts what the response and its socket hold: bytes the client has not taken yet.
      if (!response.write(frame) && response.writableLength > maxBufferedBytes) {
        onDrop();
        response.destroy();
      }
    },
    end() {
      if (response.destroyed || response.writableEnded) return;
      response.end();
      // The stream's connection is not reused while the server closes: the FIN follows the last chunk.
      response.socket?.end();
    },
  };
}
