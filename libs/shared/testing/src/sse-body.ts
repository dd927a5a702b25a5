/** `promise`, or a rejection naming the wait when it takes longer than `ms`: a stream that stops sending fails the test. */
export function within<T>(promise: PromiseLike<T>, ms = 20_000): Promise<T> {
  return Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms).unref())]);
}

/**
 * Reads a server-sent-events body until `stop` holds for what was read (or the body ends), as the JSON `data` of each
 * event, and cancels the rest. Each read waits at most `readTimeoutMs`.
 */
export async function readSseData<T>(response: Response, stop: (events: T[]) => boolean, readTimeoutMs = 20_000): Promise<T[]> {
  const events: T[] = [];
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (!stop(events)) {
      const { value, done } = await within(reader.read(), readTimeoutMs);
      if (done) break;
      text += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = text.indexOf('\n\n')) >= 0 && !stop(events)) {
        const data = text
          .slice(0, cut)
          .split('\n')
          .find((line) => line.startsWith('data: '));
        text = text.slice(cut + 2);
        if (data) events.push(JSON.parse(data.slice(6)) as T);
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return events;
}
