import { Readable } from 'node:stream';
import { getRatingsReportRefusals, type GetRatingsReport } from '@canteen-meals/domain';
import { routes } from '@canteen-meals/http-contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { sendRefusal, wireCodesOf } from '../error-mapping.js';
import { HttpError } from '../http-error.js';
import { ratingsCsvChunks } from '@canteen-meals/read-models';
import { authenticatedRouteErrors } from '../schemas/error-responses.js';
import { serveRoute } from '../serve-route.js';
import { localDateOf } from './read-params.js';

export interface ReportRoutesOptions {
  readonly getRatingsReport: GetRatingsReport;
}

const csv = 'text/csv; charset=utf-8';

/** The reports for spreadsheets (scope meals:read-reports or meals:write). */
export const reportRoutes: FastifyPluginAsyncTypebox<ReportRoutesOptions> = async (app, { getRatingsReport }) => {
  serveRoute(
    app,
    routes.getRatingsReport,
    {
      errors: [...authenticatedRouteErrors, 'forbidden', 'invalid_request', ...wireCodesOf(getRatingsReportRefusals)],
    },
    async (request, reply) => {
      const { canteen, from, to } = request.query;
      const missing = (['canteen', 'from', 'to'] as const).find((name) => request.query[name] === undefined);
      if (missing !== undefined) throw new HttpError('invalid_request', `missing query parameter "${missing}"`);
      const report = await getRatingsReport.execute({
        canteenId: canteen!,
        from: localDateOf(from!),
        to: localDateOf(to!),
      });
      if (!report.ok) return sendRefusal(reply, report.refusal);
      // The canteen exists, so its id is a slug: nothing in the file name needs escaping.
      reply
        .type(csv)
        .header('content-disposition', `attachment; filename="ratings-${canteen}-${from}-${to}.csv"`)
        .header('cache-control', 'private, no-store');
      // Streamed in chunks as the rows are made: up to 183 000 rows are never one string. (The type provider types the
      // answer by its schema, a string; Fastify pipes a stream as it is.)
      const body = Readable.from(ratingsCsvChunks(report.value.rows), { objectMode: false });
      return (reply as FastifyReply).send(body);
    },
  );
};
