import { addDays, getMenuRefusals, localDayOf, type GetCanteen, type GetMenuDays } from '@canteen-meals/domain';
import type { Clock, MenuFeedWriter } from '@canteen-meals/domain/ports';
import { CanteenParams, ExportDaysQuery, routePaths } from '@canteen-meals/http-contract';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  errorResponses,
  HttpError,
  ifNoneMatchHolds,
  localDateOf,
  type MenuCachingOptions,
  notModified,
  publicCacheControl,
  publicRouteErrors,
  sendRefusal,
  wireCodesOf,
} from '@canteen-meals/adapters-http/plugin-kit';
import { strongTagOf } from '@canteen-meals/read-models';
import { menuCalendar } from './menu-calendar.js';

export interface MenuExportUseCases {
  readonly getCanteen: GetCanteen;
  readonly getMenuDays: GetMenuDays;
}

export interface MenuExportRoutesOptions extends MenuExportUseCases {
  readonly clock: Clock;
  readonly menuCaching: MenuCachingOptions;
  /** Writes the OpenMensa feed of `openmensa.xml`; absent, that route is not served. */
  readonly feedWriter?: MenuFeedWriter | undefined;
}

/** The longest export: a month and a day. */
export const maxExportDays = 31;
const defaultFeedDays = 14;
const defaultCalendarDays = 7;

const documented = (mediaType: string, description: string) => ({
  description,
  content: { [mediaType]: { schema: Type.String({ description }) } },
});

/**
 * A canteen's menu for other programs, public and cacheable like the menu: as an OpenMensa feed (so openmensa.org and
 * every OpenMensa parser can read it) and as a calendar to subscribe to.
 */
export const menuExportRoutes: FastifyPluginAsyncTypebox<MenuExportRoutesOptions> = async (app, options) => {
  const { getCanteen, getMenuDays, clock } = options;
  const cacheControl = publicCacheControl(options.menuCaching);

  const menuOf = async (canteenId: string, query: ExportDaysQuery, defaultDays: number) => {
    const canteen = await getCanteen.execute(canteenId);
    if (!canteen.ok) return canteen;
    const from =
      query.from === undefined ? localDayOf(clock.now(), canteen.value.timeZone).date : localDateOf(query.from);
    const to = query.to === undefined ? addDays(from, defaultDays - 1) : localDateOf(query.to);
    if (to < from) throw new HttpError('invalid_request', '`to` must not be before `from`.');
    if (addDays(from, maxExportDays - 1) < to)
      throw new HttpError('invalid_request', `An export covers at most ${maxExportDays} days.`);
    const read = await getMenuDays.execute({ canteenId: canteen.value.id, from, to });
    if (!read.ok) return read;
    return { ok: true as const, value: { canteen: read.value.canteen, days: read.value.days } };
  };

  const send = (request: FastifyRequest, reply: FastifyReply, type: string, body: string) => {
    const etag = strongTagOf(body);
    reply.header('cache-control', cacheControl).header('etag', etag);
    if (ifNoneMatchHolds(request.headers, etag)) return reply.code(304).send();
    return reply.type(type).send(body);
  };

  const { feedWriter } = options;
  if (feedWriter !== undefined)
    app.get(
      routePaths.openMensaFeed,
      {
        schema: {
          operationId: 'getOpenMensaFeed',
          summary: `The canteen's menu as an OpenMensa feed v2.1 (XML, valid against open-mensa-v2.xsd): today and ${defaultFeedDays - 1} days after by default, from/to for up to ${maxExportDays} days; closed days as <closed/> (public, cacheable)`,
          tags: ['canteens'],
          security: [],
          params: CanteenParams,
          querystring: ExportDaysQuery,
          response: {
            200: documented('application/xml', 'An OpenMensa feed v2.1'),
            ...notModified,
            ...errorResponses([...publicRouteErrors, 'invalid_request', ...wireCodesOf(getMenuRefusals)]),
          },
        },
      },
      async (request, reply) => {
        const menu = await menuOf(request.params.canteen_id, request.query, defaultFeedDays);
        if (!menu.ok) return sendRefusal(reply, menu.refusal);
        return send(
          request,
          reply,
          'application/xml; charset=utf-8',
          feedWriter.write(menu.value.canteen, menu.value.days),
        );
      },
    );

  app.get(
    routePaths.menuCalendar,
    {
      schema: {
        operationId: 'getMenuCalendar',
        summary: `The canteen's menu as an iCalendar to subscribe to: one all-day event per open day with its meals, prices and notes; today and ${defaultCalendarDays - 1} days after by default, from/to for up to ${maxExportDays} days (public, cacheable)`,
        tags: ['canteens'],
        security: [],
        params: CanteenParams,
        querystring: ExportDaysQuery,
        response: {
          200: documented('text/calendar', 'An iCalendar (RFC 5545)'),
          ...notModified,
          ...errorResponses([...publicRouteErrors, 'invalid_request', ...wireCodesOf(getMenuRefusals)]),
        },
      },
    },
    async (request, reply) => {
      const menu = await menuOf(request.params.canteen_id, request.query, defaultCalendarDays);
      if (!menu.ok) return sendRefusal(reply, menu.refusal);
      reply.header('content-disposition', `inline; filename="${menu.value.canteen.id}.ics"`);
      return send(request, reply, 'text/calendar; charset=utf-8', menuCalendar(menu.value.canteen, menu.value.days));
    },
  );
};
