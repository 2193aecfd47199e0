import { send, type Answer, type ProbeRequest } from './processes.js';
import type { RecordedAnswer, ReferenceAnswers } from './reference-app.js';
import type { MissingRoute, Scenario } from './scenarios.js';

/**
 * Headers of one response or one connection rather than of the answer: Node writes date, connection, keep-alive and
 * transfer-encoding, Fastify content-length. The reference writes its own, so the two still send headers of the same
 * size. The server's X-Request-Id, new on every request, is replayed as recorded: the reference sends the
 * same set of headers, of the same length, without the work of making an id.
 */
const perResponseHeaders: ReadonlySet<string> = new Set([
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
]);

export type Recording =
  | { readonly missing: false; readonly answers: ReferenceAnswers }
  | { readonly missing: true; readonly reason: string };

/**
 * Sends each sample request of a scenario to the server once: that checks the scenario, and the answers become what
 * the reference replays, one route each. A route the server does not have yet (`Scenario.missingRoute`) is reported,
 * not thrown; any other answer than the expected status is thrown.
 */
export async function recordScenario(serverUrl: string, scenario: Scenario): Promise<Recording> {
  const answers: Record<string, RecordedAnswer> = {};
  for (const request of scenario.samples()) {
    const answer = await send(serverUrl, request);
    if (isMissing(answer, scenario.missingRoute)) return { missing: true, reason: scenario.missingRoute.reason };
    if (answer.status !== scenario.expectedStatus) {
      throw new Error(
        `${scenario.name}: ${request.method} ${request.path}: the server answered ${answer.status} ` +
          `instead of ${scenario.expectedStatus}: ${answer.body}`,
      );
    }
    answers[routeOf(request)] ??= scenario.reference === 'answer' ? replayable(answer) : bodyOnly(answer);
  }
  return { missing: false, answers };
}

/** The answer as the reference replays it: status, body, and the headers that are not per response. */
export function replayable(answer: Answer): RecordedAnswer {
  const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !perResponseHeaders.has(name)));
  return { status: answer.status, headers, body: answer.body };
}

/** The answer's status and body, sent as JSON with no header of the server's. */
export function bodyOnly(answer: Answer): RecordedAnswer {
  return { status: answer.status, headers: { 'content-type': 'application/json; charset=utf-8' }, body: answer.body };
}

/** How the reference routes a request: method and path, without the query. */
export function routeOf(request: ProbeRequest): string {
  return `${request.method} ${request.path.split('?')[0]!}`;
}

function isMissing(answer: Answer, missing: MissingRoute | undefined): missing is MissingRoute {
  return missing !== undefined && answer.status === missing.status && answer.body.includes(`"code":"${missing.code}"`);
}
