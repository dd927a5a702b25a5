/** One server-sent event: its name and its data (parsed when JSON). */
export interface SseEvent {
  event: string;
  data: unknown;
}

function parseData(lines: string[]): unknown {
  const text = lines.join('\n');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Reads an SSE body to its end: comments (heartbeats) and ids are dropped, events kept in order. */
export async function readSse(body: ReadableStream<Uint8Array>): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  let event = 'message';
  let data: string[] = [];
  const line = (text: string) => {
    if (text === '') {
      if (data.length > 0) events.push({ event, data: parseData(data) });
      event = 'message';
      data = [];
    } else if (text.startsWith('event:')) event = text.slice(6).trim();
    else if (text.startsWith('data:')) data.push(text.slice(5).replace(/^ /, ''));
  };
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.search(/\r?\n/)) >= 0) {
      line(buffer.slice(0, end));
      buffer = buffer.slice(buffer[end] === '\r' ? end + 2 : end + 1);
    }
  }
  if (buffer !== '') line(buffer);
  line('');
  return events;
}
