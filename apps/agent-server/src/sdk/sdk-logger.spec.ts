import { Writable } from 'node:stream';
import { createLogger } from '@platform/logging';
import { getLogger } from '@langchain/langgraph-sdk/logging';
import { createSdkLogger, registerSdkLogger } from './sdk-logger';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger({ service: 'agent-server', level: 'trace', destination }) };
}

describe('the logger getLogger() answers with', () => {
  it("writes winston's call shapes as JSON lines at the matching level, with the node that logged", () => {
    const { lines, logger } = capture();
    let node: string | undefined = 'agent';
    registerSdkLogger(createSdkLogger(logger, () => node));
    const sdk = getLogger();
    expect(sdk.info('hello', { user: 'alice' }, { step: 2 })).toBe(sdk);
    node = undefined;
    sdk.warn({ message: 'as an object', code: 7 });
    sdk.error(new Error('boom'));
    sdk.silly('chatty');
    sdk.http('request', 'extra');
    expect(lines.map(({ level, msg, langgraph_node, user, step, code, meta }) => ({ level, msg, langgraph_node, user, step, code, meta }))).toEqual([
      { level: 'info', msg: 'hello', langgraph_node: 'agent', user: 'alice', step: 2 },
      { level: 'warn', msg: 'as an object', code: 7 },
      { level: 'error', msg: 'boom' },
      { level: 'trace', msg: 'chatty' },
      { level: 'debug', msg: 'request', meta: ['extra'] },
    ]);
    expect(lines[2]).toMatchObject({ err: { message: 'boom', type: 'Error' } });
  });
});
