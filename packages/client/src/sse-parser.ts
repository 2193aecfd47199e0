/** One dispatched Server-Sent Event: its type (`message` when the stream named none), data and last event id. */
export interface SseMessage {
  readonly event: string;
  readonly data: string;
  /** The last `id:` the stream set (it carries over to later events, as the standard says); '' when none. */
  readonly id: string;
}

/**
 * The event-stream format of the HTML standard (https://html.spec.whatwg.org/multipage/server-sent-events.html),
 * for text that arrives in pieces cut anywhere: lines end with CRLF, LF or CR; `event:`, `data:` (joined with LF),
 * `id:` (ignored if it holds NUL), `retry:` and unknown fields and `:` comments; a blank line dispatches an event
 * that has data. Feed it decoded text (a TextDecoder with `stream: true` keeps multi-byte characters whole).
 */
export class SseParser {
  private buffer = '';
  /** The last piece ended with CR: an LF at the start of the next one belongs to the same line end. */
  private afterCarriageReturn = false;
  private eventType = '';
  private data: string[] = [];
  private lastEventId = '';

  /** The events completed by this piece of text. */
  push(text: string): SseMessage[] {
    if (this.afterCarriageReturn && text.startsWith('\n')) text = text.slice(1);
    this.afterCarriageReturn = false;
    this.buffer += text;
    const messages: SseMessage[] = [];
    let start = 0;
    for (;;) {
      const end = lineEndIn(this.buffer, start);
      if (end < 0) break;
      const line = this.buffer.slice(start, end);
      if (this.buffer[end] === '\r') {
        if (end + 1 === this.buffer.length) {
          this.afterCarriageReturn = true;
          start = end + 1;
        } else {
          start = this.buffer[end + 1] === '\n' ? end + 2 : end + 1;
        }
      } else {
        start = end + 1;
      }
      const message = this.line(line);
      if (message !== null) messages.push(message);
    }
    this.buffer = this.buffer.slice(start);
    return messages;
  }

  private line(line: string): SseMessage | null {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.eventType = value;
        break;
      case 'data':
        this.data.push(value);
        break;
      case 'id':
        if (!value.includes('\0')) this.lastEventId = value;
        break;
      default:
        // `retry` (the reconnection delay of EventSource) and unknown fields: nothing to keep here.
        break;
    }
    return null;
  }

  private dispatch(): SseMessage | null {
    const data = this.data;
    const event = this.eventType;
    this.data = [];
    this.eventType = '';
    if (data.length === 0) return null;
    return { event: event === '' ? 'message' : event, data: data.join('\n'), id: this.lastEventId };
  }
}

function lineEndIn(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (char === 10 || char === 13) return i;
  }
  return -1;
}
