import type { ServerResponse } from 'node:http';
import { getMenuRefusals, type GetPublicMenu, type MenuChangeHub, type MenuDays } from '@canteen-meals/domain';
import { LiveQuery, LiveSnapshotData, routePaths } from '@canteen-meals/http-contract';
import { isIPv6 } from 'node:net';
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import {
  errorResponses,
  HttpError,
  localDateOf,
  publicRouteErrors,
  sendRefusal,
  wireCodesOf,
} from '@canteen-meals/adapters-http/plugin-kit';
import { LiveStats, realTimers, type LiveScheduler, type LiveSubscriber } from '@canteen-meals/read-models';

/** The live streams of an instance: how many, how often, and how much a slow reader may hold. */
export interface LiveOptions {
  /** Open streams per instance; one more answers 503 `service_unavailable` (another instance may have room). */
  readonly maxStreams: number;
  /**
   * Open streams per client address (as `trustProxy` determines it; an IPv6 address counts by its /64); one more
   * answers 429 `rate_limited`.
   */
  readonly maxStreamsPerAddress: number;
  /** Open streams per IPv6 /56 (256 /64s: one subscriber's usual delegation); one more answers 429 `rate_limited`. */
  readonly maxStreamsPerIpv6Slash56: number;
  /**
   * (canteen, day) channels kept per instance: each is read again on a menu change, so they are what a change costs.
   * A stream that would open one more answers 503 `service_unavailable`; joining a kept channel is always possible.
   */
  readonly maxChannels: number;
  /** Distinct channels the streams of one address (IPv6: its /64) follow; one more answers 429 `rate_limited`. */
  readonly maxChannelsPerAddress: number;
  /**
   * A stream is ended after at most this long (less up to a tenth, at random, so that streams opened together do not
   * come back together); its client reconnects with Last-Event-ID (EventSource does so by itself) and resumes.
   */
  readonly maxLifetimeMs: number;
  /** In [0, 1): the lifetimes' jitter; Math.random by default. */
  readonly random?: () => number;
  /** A `: heartbeat` comment goes to every stream this often. */
  readonly heartbeatMs: number;
  /** A meal's `stats` events are at least this far apart (250: at most 4 a second). */
  readonly coalesceMs: number;
  /**
   * A stream is dropped when the bytes written to it since its socket last drained exceed this (the frame that filled
   * the socket does not count: a day's snapshot may be larger): its client does not keep up, memory must not grow.
   */
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
  maxStreamsPerIpv6Slash56: 100,
  // A menu change costs a read per channel: 1000 bound it to what one instance reads in well under a second; a
  // household follows a canteen or two, an office a handful.
  maxChannels: 1000,
  maxChannelsPerAddress: 10,
  maxLifetimeMs: 3_600_000,
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
  const perSlash56 = new Map<string, number>();
  const channelsOfAddress = new Map<string, Map<string, number>>();
  const reserve = (ip: string, days: MenuDays): (() => void) => {
    const address = normalizeIP(ip);
    const slash56 = isIPv6(address) ? normalizeIP(ip, 56) : null;
    const channel = `${days.canteenId}\u0000${days.from}`;
    const followed = channelsOfAddress.get(address);
    if (open >= settings.maxStreams || (!live.hasChannel(days) && live.channelCount >= settings.maxChannels)) {
      throw new HttpError('service_unavailable', 'This instance serves as many live streams as it can; retry later.', {
        'retry-after': String(retryAfterS),
      });
    }
    const ofAddress = perAddress.get(address) ?? 0;
    if (ofAddress >= settings.maxStreamsPerAddress) {
      throw tooMany(`Too many live streams from one address (${settings.maxStreamsPerAddress}).`);
    }
    if (slash56 !== null && (perSlash56.get(slash56) ?? 0) >= settings.maxStreamsPerIpv6Slash56) {
      throw tooMany(`Too many live streams from one IPv6 /56 network (${settings.maxStreamsPerIpv6Slash56}).`);
    }
    if (followed !== undefined && !followed.has(channel) && followed.size >= settings.maxChannelsPerAddress) {
      throw tooMany(`Too many canteen days followed live from one address (${settings.maxChannelsPerAddress}).`);
    }
    open += 1;
    perAddress.set(address, ofAddress + 1);
    if (slash56 !== null) perSlash56.set(slash56, (perSlash56.get(slash56) ?? 0) + 1);
    const channels = followed ?? new Map<string, number>();
    channels.set(channel, (channels.get(channel) ?? 0) + 1);
    channelsOfAddress.set(address, channels);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      open -= 1;
      decrement(perAddress, address);
      if (slash56 !== null) decrement(perSlash56, slash56);
      decrement(channels, channel);
      if (channels.size === 0) channelsOfAddress.delete(address);
    };
  };
  const random = settings.random ?? Math.random;
  const scheduler = settings.scheduler ?? realTimers;

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
                schema: Type.String({
                  description: `Events whose data is ${JSON.stringify(Object.keys(LiveSnapshotData.properties))} or one meal's figures`,
                }),
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
      const days = { canteenId: canteen, from: day, to: day };
      const release = reserve(request.ip, days);
      let started = false;
      try {
        const header = request.headers['last-event-id'];
        const lastEventId = typeof header === 'string' ? header : undefined;
        const joined = await live.subscribe(days, lastEventId, () => {
          if (reply.raw.destroyed) return undefined;
          started = true;
          // Ended by the server after its lifetime: its client comes back with Last-Event-ID and takes a slot anew.
          const lifetimeMs = Math.max(1, Math.round(settings.maxLifetimeMs * (1 - random() / 10)));
          let lifetime: unknown = null;
          const subscriber = startStream(
            reply,
            settings.maxBufferedBytes,
            (drained) => live.drained(drained),
            (ended, dropped) => {
              if (lifetime !== null) scheduler.clearTimeout(lifetime);
              live.leave(ended);
              release();
              if (dropped) request.log.info({ canteen, date }, 'live stream dropped: its client does not keep up');
            },
          );
          lifetime = scheduler.setTimeout(() => {
            lifetime = null;
            live.leave(subscriber);
            // The answer ends, the connection stays open for the client's next request (its reconnect).
            if (!reply.raw.destroyed && !reply.raw.writableEnded) reply.raw.end();
          }, lifetimeMs);
          return subscriber;
        });
        if (!joined.ok) return sendRefusal(reply, joined.refusal);
        if (!started)
          throw new HttpError('service_unavailable', 'The server is shutting down; retry on another connection.');
        return reply;
      } finally {
        if (!started) release();
      }
    },
  );
};

function tooMany(message: string): HttpError {
  return new HttpError('rate_limited', message, { 'retry-after': String(retryAfterS) });
}

function decrement<K>(counts: Map<K, number>, key: K): void {
  const left = (counts.get(key) ?? 1) - 1;
  if (left <= 0) counts.delete(key);
  else counts.set(key, left);
}

/**
 * Takes the answer from Fastify and begins the event stream on the socket: the headers the hooks have set (security
 * headers, request id, CORS, rate limit) and the stream's own. Nothing is buffered beyond `maxBufferedBytes`: a stream
 * whose client reads slower than events come is dropped (the client reconnects with Last-Event-ID when it can).
 */
function startStream(
  reply: FastifyReply,
  maxBufferedBytes: number,
  onDrain: (subscriber: LiveSubscriber) => void,
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
  // After sseSubscriber's own listener: the stream counts as drained before the frames it waits for are written.
  response.on('drain', () => onDrain(subscriber));
  response.on('close', () => onEnd(subscriber, dropped));
  return subscriber;
}

/**
 * Writes frames to a response. The backlog is what was written since the socket last drained, not counting the write
 * that filled it: one frame larger than `maxBufferedBytes` (a day of 400 meals' snapshot) goes out; a response whose
 * backlog passes the bound is destroyed, and `onDrop` told. While the socket is full it is `backedUp`: the registry
 * then holds the stream's frames back, keeping each meal's last state, until the socket drains.
 */
export function sseSubscriber(
  response: Pick<ServerResponse, 'write' | 'end' | 'destroy' | 'destroyed' | 'writableEnded' | 'socket' | 'on'>,
  maxBufferedBytes: number,
  onDrop: () => void,
): LiveSubscriber {
  let waitingForDrain = false;
  let backlog = 0;
  response.on('drain', () => {
    waitingForDrain = false;
    backlog = 0;
  });
  return {
    get backedUp() {
      return waitingForDrain;
    },
    send(frame) {
      if (response.destroyed || response.writableEnded) return;
      if (waitingForDrain) {
        backlog += Buffer.byteLength(frame);
        if (backlog > maxBufferedBytes) {
          onDrop();
          response.destroy();
          return;
        }
      }
      if (!response.write(frame)) waitingForDrain = true;
    },
    end() {
      if (response.destroyed || response.writableEnded) return;
      response.end();
      // The stream's connection is not reused while the server closes: the FIN follows the last chunk.
      response.socket?.end();
    },
  };
}
