import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One line per request at info costs too much at lunchtime, so a completed request is logged at debug only.
 * A request that errored is still logged at error, with its request id like every line of the request.
 */
export class DebugRequestLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) {
      reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    } else {
      // Below debug, pino's debug() is a no-op: the line costs one small object.
      reply.log.debug({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    }
  }

  override routeNotFound(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'route not found');
  }
}
