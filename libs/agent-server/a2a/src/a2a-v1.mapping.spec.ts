import type { A2aStreamEvent, A2aTask } from './a2a.types';
import { fromV1Message, fromV1State, toV1StreamResponse, toV1Task } from './a2a-v1.mapping';
import { toV1Error } from './a2a-v1-errors';

const task: A2aTask = {
  kind: 'task',
  id: 't',
  contextId: 'c',
  status: { state: 'input-required', timestamp: '2025-01-01T00:00:00.000Z', message: { kind: 'message', messageId: 'm2', role: 'agent', parts: [{ kind: 'data', data: { q: 1 } }] } },
  artifacts: [{ artifactId: 'a', name: 'Assistant Response', parts: [{ kind: 'text', text: 'hi' }] }],
  history: [{ kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'file', file: { uri: 'https://x/f.pdf', mimeType: 'application/pdf', name: 'f.pdf' } }] }],
};

describe('A2A 1.0 mapping', () => {
  it('carries a task to 1.0: no kinds, enum names, parts by member, artifacts only when wanted', () => {
    expect(toV1Task(task)).toEqual({
      id: 't',
      contextId: 'c',
      status: {
        state: 'TASK_STATE_INPUT_REQUIRED',
        timestamp: '2025-01-01T00:00:00.000Z',
        message: { messageId: 'm2', role: 'ROLE_AGENT', parts: [{ data: { q: 1 }, mediaType: 'application/json' }] },
      },
      artifacts: [{ artifactId: 'a', name: 'Assistant Response', parts: [{ text: 'hi' }] }],
      history: [{ messageId: 'm1', role: 'ROLE_USER', parts: [{ url: 'https://x/f.pdf', mediaType: 'application/pdf', filename: 'f.pdf' }] }],
    });
    expect(toV1Task(task, { includeArtifacts: false }).artifacts).toBeUndefined();
  });

  it('wraps stream events in their member and drops final', () => {
    const status: A2aStreamEvent = { kind: 'status-update', taskId: 't', contextId: 'c', status: { state: 'completed' }, final: true };
    expect(toV1StreamResponse(status)).toEqual({ statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_COMPLETED' } } });
    const artifact: A2aStreamEvent = { kind: 'artifact-update', taskId: 't', contextId: 'c', artifact: { artifactId: 'a', parts: [] }, append: false, lastChunk: true };
    expect(toV1StreamResponse(artifact)).toEqual({ artifactUpdate: { taskId: 't', contextId: 'c', artifact: { artifactId: 'a', parts: [] }, lastChunk: true } });
    expect(toV1StreamResponse(task)).toHaveProperty('task.id', 't');
  });

  it('reads a 1.0 message as the 0.3 message the tasks take', () => {
    const message = fromV1Message({
      messageId: 'm',
      role: 'ROLE_USER',
      contextId: 'c',
      parts: [{ text: 'a', metadata: { k: 1 } }, { data: { x: 1 } }, { data: 'plain' }, { raw: 'AAE=', mediaType: 'image/png', filename: 'p.png' }],
    });
    expect(message).toEqual({
      kind: 'message',
      messageId: 'm',
      role: 'user',
      contextId: 'c',
      parts: [
        { kind: 'text', text: 'a', metadata: { k: 1 } },
        { kind: 'data', data: { x: 1 } },
        { kind: 'data', data: { value: 'plain' } },
        { kind: 'file', file: { bytes: 'AAE=', mimeType: 'image/png', name: 'p.png' } },
      ],
    });
    expect(fromV1State('TASK_STATE_CANCELED')).toBe('canceled');
  });

  it('gives A2A errors an ErrorInfo with their reason and details, and leaves JSON-RPC errors alone', () => {
    expect(toV1Error({ code: -32001, message: 'Task not found: x', data: { taskId: 'x', n: 2 } })).toEqual({
      code: -32001,
      message: 'Task not found: x',
      data: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org', metadata: { taskId: 'x', n: '2' } }],
    });
    const invalid = { code: -32602, message: 'Invalid params', data: { issues: [] } };
    expect(toV1Error(invalid)).toBe(invalid);
  });
});
