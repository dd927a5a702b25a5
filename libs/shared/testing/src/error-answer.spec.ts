import { errorAnswerFault } from './error-answer';

describe('errorAnswerFault', () => {
  it('accepts successes, 405s, details and FastAPI-shaped 422s', () => {
    expect(errorAnswerFault(200, 'anything')).toBeUndefined();
    expect(errorAnswerFault(405, '')).toBeUndefined();
    expect(errorAnswerFault(404, '{"detail": "Thread not found"}')).toBeUndefined();
    expect(errorAnswerFault(422, '{"detail": [{"loc": ["body", "a"], "msg": "Field required", "type": "missing"}]}')).toBeUndefined();
  });

  it('names what is wrong', () => {
    expect(errorAnswerFault(500, '{"detail": "Internal Server Error"}')).toBe('500');
    expect(errorAnswerFault(400, 'Bad Request')).toBe('not JSON');
    expect(errorAnswerFault(409, '{"message": "conflict"}')).toBe('no detail');
    // What a URIError or an undecodable body used to get: the client's status, the server's non-answer.
    expect(errorAnswerFault(400, '{"detail": "Internal Server Error"}')).toBe('400 hiding an internal error');
    expect(errorAnswerFault(422, '{"detail": "wrong"}')).toBe('422 not FastAPI-shaped');
    expect(errorAnswerFault(422, '{"detail": [{"loc": "body", "msg": "x", "type": "y"}]}')).toBe('422 not FastAPI-shaped');
  });

  it('expects JSON-RPC error objects where asked', () => {
    expect(errorAnswerFault(400, '{"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Parse error"}}', { jsonRpc: true })).toBeUndefined();
    expect(errorAnswerFault(400, '{"detail": "x"}', { jsonRpc: true })).toBe('not a JSON-RPC error');
  });
});
