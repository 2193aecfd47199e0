import { connect, type Socket } from 'node:net';

export interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * One HTTP/1.1 connection driven by hand, so that a test decides exactly when the headers and the body of a
 * request leave, and sees each interim (100 Continue) and final answer on that connection in order.
 */
export class RawConnection {
  private buffer = '';
  private readonly responses: RawResponse[] = [];
  private waiting: (() => void) | undefined;
  private ended = false;
  readonly closed: Promise<void>;

  private constructor(private readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      this.parse();
      this.waiting?.();
    });
    this.closed = new Promise((resolve) => {
      socket.on('close', () => {
        this.ended = true;
        this.waiting?.();
        resolve();
      });
    });
    socket.on('error', () => {}); // a reset shows as a close; what arrived before it stays readable
  }

  /** Resolves once connected; rejects when the connection is refused. */
  static open(port: number, host = '127.0.0.1'): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, host);
      socket.once('connect', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  write(text: string): void {
    this.socket.write(text);
  }

  get isClosed(): boolean {
    return this.ended;
  }

  /** The next answer on this connection, or undefined when the server closed it first. */
  async next(): Promise<RawResponse | undefined> {
    while (this.responses.length === 0 && !this.ended) {
      await new Promise<void>((resolve) => (this.waiting = resolve));
      this.waiting = undefined;
    }
    return this.responses.shift();
  }

  destroy(): void {
    this.socket.destroy();
  }

  private parse(): void {
    for (;;) {
      const headEnd = this.buffer.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const [statusLine = '', ...lines] = this.buffer.slice(0, headEnd).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1]);
      const length = status === 100 ? 0 : Number(headers['content-length'] ?? 0);
      const bodyStart = headEnd + 4;
      // The bodies here are ASCII JSON, so characters and bytes agree.
      if (this.buffer.length < bodyStart + length) return;
      this.responses.push({ status, headers, body: this.buffer.slice(bodyStart, bodyStart + length) });
      this.buffer = this.buffer.slice(bodyStart + length);
    }
  }
}

export function requestHead(method: string, path: string, headers: Record<string, string | number>): string {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `${method} ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\n${lines.join('')}\r\n`;
}
