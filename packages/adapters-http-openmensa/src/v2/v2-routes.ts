import {
  addDays,
  isLocalDate,
  localDayOf,
  type FindCanteenByOpenMensaId,
  type GetMenuDays,
  type ListCanteens,
  type LocalDate,
  type MenuChangeHub,
  type MenuDayReading,
  type StoredCanteen,
} from '@canteen-meals/domain';
import type { Clock } from '@canteen-meals/domain/ports';
// The `hide` of a route's schema (@fastify/swagger's): the v2 routes are not in the OpenAPI document.
import type {} from '@fastify/swagger';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ifNoneMatchHolds, type MenuCachingOptions, publicCacheControl } from '@canteen-meals/adapters-http/plugin-kit';
import { jsonAnswer, notFound, V2Answers, type V2Answer } from '@canteen-meals/read-models';
import { canteenJson, dayJson, dayWithMealsJson, mealJson } from './v2-bodies.js';
import { nearestCanteens, type CanteenFilters } from './v2-canteen-filters.js';
import { lastValueOf, pageOf, pageRequestOf, pagingHeaders, rubyToI, type RawQuery } from './v2-paging.js';

export interface OpenMensaV2UseCases {
  readonly getMenuDays: GetMenuDays;
  readonly findCanteenByOpenMensaId: FindCanteenByOpenMensaId;
  readonly listCanteens: ListCanteens;
  readonly menuChanges: MenuChangeHub;
}

export interface OpenMensaV2Options extends OpenMensaV2UseCases {
  readonly clock: Clock;
  readonly menuCaching: MenuCachingOptions;
  /**
   * Where the paging links point (PUBLIC_BASE_URL, e.g. `https://meals.example.org`); else the request's valid Host.
   */
  readonly publicBaseUrl?: string | undefined;
}

/** How far a list of days reaches from its start: openmensa.org's has no end, a read here has one. */
const daysListSpan = 62;
/** `/canteens/{id}/meals`: the days from `start` for a week, as openmensa.org answers them. */
const canteenMealsSpan = 7;

/** Which answer headers a browser app may read: the paging, the version, the validator. */
const exposedHeaders = 'Link, X-OM-Api-Version, X-Total-Pages, X-Total-Count, X-Per-Page, X-Current-Page, ETag';

const anyQuery = Type.Object({}, { additionalProperties: true });
const hidden = { hide: true, querystring: anyQuery } as const;

/**
 * OpenMensa's read API v2, as openmensa.org serves it (its routes, controllers and decorators): the canteens by their
 * OpenMensa numbers, their days and meals. Public, for any origin; unknown resources are 404 with no body; every
 * answer says `X-OM-Api-Version: 2`. Register with the prefix `/api/v2` and the app's rewriteUrl `openMensaV2Url`.
 */
export const openMensaV2Routes: FastifyPluginAsync<OpenMensaV2Options> = async (app, options) => {
  const { getMenuDays, findCanteenByOpenMensaId, listCanteens, clock } = options;
  const answers = new V2Answers(clock, options.menuCaching);
  const unsubscribe = options.menuChanges.subscribe(answers.onChange);
  app.addHook('onClose', async () => unsubscribe());
  const cacheControl = publicCacheControl(options.menuCaching);

  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers({
      'x-om-api-version': '2',
      'access-control-allow-origin': '*',
      'access-control-expose-headers': exposedHeaders,
    });
    done();
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send());
  app.setErrorHandler((error, _request, reply) => {
    // A request that fails validation here is one openmensa.org would not find; anything else is the app's to answer.
    if ((error as { statusCode?: number }).statusCode === 400) return reply.code(404).send();
    throw error;
  });
  app.options('/*', { schema: { hide: true } }, (request, reply) =>
    reply
      .code(204)
      .headers({
        'access-control-allow-methods': 'GET, HEAD, OPTIONS',
        'access-control-allow-headers': request.headers['access-control-request-headers'] ?? 'if-none-match',
        'access-control-max-age': '600',
      })
      .send(),
  );

  // A kept list answer's paging headers, by the URL asked (its Link names it): worked out once, not per request.
  const pagingKept = new WeakMap<V2Answer, Map<string, Record<string, string>>>();
  const pagingOf = (
    request: FastifyRequest,
    answer: V2Answer & { kind: 'json' },
    paged: NonNullable<typeof answer.paged>,
  ) => {
    const base = urlOf(request, options.publicBaseUrl);
    const url = `${base}${request.url}`;
    let byUrl = pagingKept.get(answer);
    const kept = byUrl?.get(url);
    if (kept !== undefined) return kept;
    const headers = pagingHeaders(paged, base, request.query as RawQuery);
    if (byUrl === undefined) pagingKept.set(answer, (byUrl = new Map()));
    // A few URLs per answer (its query's spellings); past that, nothing more is kept for it.
    if (byUrl.size < maxPagingUrlsKept) byUrl.set(url, headers);
    return headers;
  };

  const send = (request: FastifyRequest, reply: FastifyReply, answer: V2Answer) => {
    if (answer.kind === 'not_found') return reply.code(404).send();
    if (answer.kind === 'bad_page') return reply.code(400).type('text/plain; charset=utf-8').send('Page must be > 1!');
    reply.header('cache-control', cacheControl).header('etag', answer.etag);
    if (answer.paged !== undefined) reply.headers(pagingOf(request, answer, answer.paged));
    if (ifNoneMatchHolds(request.headers, answer.etag)) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(answer.body);
  };

  const canteenOf = async (idText: string) => {
    const id = openMensaIdOf(idText);
    if (id === undefined) return undefined;
    const found = await findCanteenByOpenMensaId.execute(id);
    return found.ok ? found.value : undefined;
  };
  const daysOf = async (canteen: StoredCanteen, from: LocalDate, to: LocalDate): Promise<readonly MenuDayReading[]> => {
    const read = await getMenuDays.execute({ canteenId: canteen.id, from, to });
    return read.ok ? read.value.days : [];
  };
  const todayOf = (canteen: StoredCanteen) => localDayOf(clock.now(), canteen.timeZone).date;
  const startOf = (query: RawQuery, canteen: StoredCanteen) => {
    const start = lastValueOf(query, 'start');
    return start !== undefined && isLocalDate(start) ? start : todayOf(canteen);
  };
  const paged = <T>(query: RawQuery, all: readonly T[], json: (item: T) => string): V2Answer => {
    const request = pageRequestOf(query);
    if (request === undefined) return { kind: 'bad_page' };
    const page = pageOf(all, request);
    const { items, ...counts } = page;
    return jsonAnswer(`[${items.map(json).join(',')}]`, counts);
  };
  const pagingKey = (query: RawQuery) => {
    const request = pageRequestOf(query);
    return request === undefined ? 'bad' : `${request.page}/${request.perPage}`;
  };

  type Params = Record<string, string>;

  app.get('/canteens', { schema: hidden }, async (request, reply) => {
    const query = request.query as RawQuery;
    const filters = canteenFiltersOf(query);
    const key = `canteens\u0000${JSON.stringify(filters)}\u0000${pagingKey(query)}`;
    const answer = await answers.answer(key, async () =>
      paged(query, nearestCanteens(await listCanteens.execute(), filters), canteenJson),
    );
    return send(request, reply, answer);
  });

  app.get('/canteens/:id', { schema: hidden }, async (request, reply) => {
    const { id } = request.params as Params;
    const answer = await answers.answer(`canteen\u0000${id}`, async () => {
      const canteen = await canteenOf(id!);
      return canteen === undefined ? notFound : jsonAnswer(canteenJson(canteen));
    });
    return send(request, reply, answer);
  });

  app.get('/canteens/:id/days', { schema: hidden }, async (request, reply) => {
    const { id } = request.params as Params;
    const query = request.query as RawQuery;
    const canteen = await canteenOf(id!);
    if (canteen === undefined) return send(request, reply, notFound);
    const start = startOf(query, canteen);
    const answer = await answers.answer(`days\u0000${canteen.id}\u0000${start}\u0000${pagingKey(query)}`, async () =>
      paged(query, await daysOf(canteen, start, addDays(start, daysListSpan - 1)), dayJson),
    );
    return send(request, reply, answer);
  });

  const dayAnswer = (id: string, date: string, answerOf: (day: MenuDayReading) => V2Answer) => async () => {
    const canteen = await canteenOf(id);
    if (canteen === undefined || !isLocalDate(date)) return notFound;
    const [day] = await daysOf(canteen, date, date);
    return day === undefined ? notFound : answerOf(day);
  };

  app.get('/canteens/:id/days/:date', { schema: hidden }, async (request, reply) => {
    const { id, date } = request.params as Params;
    const answer = await answers.answer(
      `day\u0000${id}\u0000${date}`,
      dayAnswer(id!, date!, (day) => jsonAnswer(dayJson(day))),
    );
    return send(request, reply, answer);
  });

  app.get('/canteens/:id/days/:date/meals', { schema: hidden }, async (request, reply) => {
    const { id, date } = request.params as Params;
    const query = request.query as RawQuery;
    const key = `meals\u0000${id}\u0000${date}\u0000${pagingKey(query)}`;
    const answer = await answers.answer(
      key,
      dayAnswer(id!, date!, (day) => paged(query, day.meals, mealJson)),
    );
    return send(request, reply, answer);
  });

  app.get('/canteens/:id/days/:date/meals/:mealId', { schema: hidden }, async (request, reply) => {
    const { id, date, mealId } = request.params as Params;
    const key = `meal\u0000${id}\u0000${date}\u0000${mealId}`;
    const answer = await answers.answer(
      key,
      dayAnswer(id!, date!, (day) => {
        const meal = day.meals.find((reading) => String(reading.meal.id) === mealId);
        return meal === undefined ? notFound : jsonAnswer(mealJson(meal));
      }),
    );
    return send(request, reply, answer);
  });

  app.get('/canteens/:id/meals', { schema: hidden }, async (request, reply) => {
    const { id } = request.params as Params;
    const query = request.query as RawQuery;
    const canteen = await canteenOf(id!);
    if (canteen === undefined) return send(request, reply, notFound);
    const start = startOf(query, canteen);
    const answer = await answers.answer(`week\u0000${canteen.id}\u0000${start}`, async () => {
      const days = await daysOf(canteen, start, addDays(start, canteenMealsSpan - 1));
      return jsonAnswer(`[${days.map(dayWithMealsJson).join(',')}]`);
    });
    return send(request, reply, answer);
  });
};

/** How many URLs' paging headers one kept answer keeps. */
const maxPagingUrlsKept = 16;

/** An OpenMensa number as a path names it: digits only; anything else names no canteen. */
function openMensaIdOf(text: string): number | undefined {
  if (!/^\d{1,10}$/.test(text)) return undefined;
  const id = Number(text);
  return id >= 1 && id <= 2_147_483_647 ? id : undefined;
}

/**
 * The request's own URL without its query, as the paging links name it: under the configured public base URL, else
 * absolute with the request's protocol and host (behind proxies as TRUST_PROXY says) when the host is a valid one,
 * else relative. These answers are cached publicly: a Host header of `>`, `;` or `"` must not write links of its own.
 */
function urlOf(request: FastifyRequest, publicBaseUrl: string | undefined): string {
  const path = linkSafePath(request.url.split('?')[0]!);
  if (publicBaseUrl !== undefined) return `${publicBaseUrl}${path}`;
  return validHost.test(request.host) ? `${request.protocol}://${request.host}${path}` : path;
}

/** A DNS name or IPv4 address, or an IPv6 address in brackets, with an optional port: nothing else is a host. */
const validHost =
  /^(?:(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/** The path with what could end or split a link (`<>"`, `,`, `;`, white space, non-ASCII) percent-encoded. */
function linkSafePath(path: string): string {
  return path.replace(/[^A-Za-z0-9\-._~!$&'()*+=:@/%]/g, (character) => encodeURIComponent(character));
}

/** The filters of the canteen list, as openmensa.org's has_scope reads them. */
function canteenFiltersOf(query: RawQuery): CanteenFilters {
  const value = (key: string) => lastValueOf(query, key);
  const ids = value('ids');
  const hasCoordinates = value('hasCoordinates');
  const [lat, lng, dist] = [value('near[lat]'), value('near[lng]'), value('near[dist]')];
  const near =
    lat === undefined && lng === undefined && dist === undefined
      ? undefined
      : { lat: rubyToF(lat), lng: rubyToF(lng), distKm: dist === undefined ? 10 : rubyToF(dist) };
  return {
    // has_scope skips blank values; `ids` keeps the positive ones, each once.
    ...(ids === undefined || ids.trim() === ''
      ? {}
      : {
          ids: [
            ...new Set(
              ids
                .split(',')
                .map(rubyToI)
                .filter((id) => id > 0),
            ),
          ],
        }),
    ...(hasCoordinates === undefined || hasCoordinates === ''
      ? {}
      : { hasCoordinates: hasCoordinates !== 'false' && hasCoordinates !== '0' }),
    ...(near === undefined ? {} : { near }),
  };
}

/** Ruby's String#to_f: the leading decimal number, 0 when there is none. */
function rubyToF(text: string | undefined): number {
  const match = /^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)/.exec(text ?? '');
  return match === null ? 0 : Number.parseFloat(match[1]!);
}
