import { Agent, request, type IncomingHttpHeaders } from 'node:http';

export interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: any;
}

/** One kept-alive pool of connections per client, so that a test controls how many sockets it opens. */
export function keepAliveAgent(maxSockets = 16): Agent {
  return new Agent({ keepAlive: true, maxSockets });
}

/**
 * A JSON request with a bearer token. Rejects only when no answer arrived (refused, reset, cut): the caller
 * then cannot know whether the request reached the database.
 */
export function send(
  agent: Agent | false,
  baseUrl: string,
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, baseUrl),
      {
        method,
        agent,
        headers: {
          ...(token === null ? {} : { authorization: `Bearer ${token}` }),
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('error', reject);
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) });
          } catch (error) {
            reject(new Error(`answer ${res.statusCode} is not JSON: ${text.slice(0, 200)}`, { cause: error }));
          }
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

export const rateMeal = (agent: Agent | false, baseUrl: string, token: string, mealId: number, rating: number | null) =>
  send(agent, baseUrl, 'POST', '/api/v1/rate-meal', token, { meal_id: mealId, rating });
