import { z } from 'zod';
import {
  AuthenticationError,
  ConflictError,
  DeadlineExceededError,
  GrpcCode,
  InputError,
  InternalError,
  NotAllowedError,
  NotFoundError,
  NotImplementedError,
  TooManyRequestsError,
  ServiceUnavailableError,
  UnavailableError,
  ValidationError,
  errorFromGrpcStatus,
  errorFromHttpStatus,
  isRetryableGrpcCode,
  toGrpcStatus,
  toHttpError,
  validationErrorFromZod,
} from './index';

const cases = [
  [new InputError('bad'), 400, GrpcCode.INVALID_ARGUMENT],
  [new AuthenticationError('who'), 401, GrpcCode.UNAUTHENTICATED],
  [new NotAllowedError('no'), 403, GrpcCode.PERMISSION_DENIED],
  [new NotFoundError('gone'), 404, GrpcCode.NOT_FOUND],
  [new ConflictError('dup'), 409, GrpcCode.ALREADY_EXISTS],
  [new TooManyRequestsError('slow down'), 429, GrpcCode.RESOURCE_EXHAUSTED],
  [new UnavailableError('down'), 503, GrpcCode.UNAVAILABLE],
  [new DeadlineExceededError('late'), 504, GrpcCode.DEADLINE_EXCEEDED],
  [new NotImplementedError('not here'), 501, GrpcCode.UNIMPLEMENTED],
] as const;

describe('HTTP mapping', () => {
  it.each(cases)('%p → %d with {"detail": message}', (err, status) => {
    expect(toHttpError(err)).toMatchObject({ status, body: { detail: err.message }, internal: status === 504 });
  });

  it('answers a dependency outage 503 naming the dependency, with a Retry-After, and gRPC UNAVAILABLE', () => {
    const err = new ServiceUnavailableError('database', { cause: new Error('connect ECONNREFUSED'), retryAfterSeconds: 2 });
    expect(err).toBeInstanceOf(UnavailableError);
    expect(err.code).toBe('unavailable');
    expect(toHttpError(err)).toEqual({ status: 503, body: { detail: 'database unavailable' }, internal: false, retryAfterSeconds: 2, headers: { 'Retry-After': '2' } });
    expect(toGrpcStatus(err)).toEqual({ code: GrpcCode.UNAVAILABLE, details: 'database unavailable', internal: false });
    expect(toHttpError(errorFromGrpcStatus(GrpcCode.UNAVAILABLE, 'database unavailable'))).toMatchObject({ status: 503, retryAfterSeconds: 1 });
  });

  it('answers a 429 that knows when to come back with Retry-After in whole seconds (at least 1)', () => {
    expect(toHttpError(new TooManyRequestsError('slow down', { retryAfterSeconds: 2.2 }))).toEqual({
      status: 429,
      body: { detail: 'slow down' },
      internal: false,
      headers: { 'Retry-After': '3' },
    });
    expect(toHttpError(new TooManyRequestsError('slow down', { retryAfterSeconds: 0.01 })).headers).toEqual({ 'Retry-After': '1' });
  });

  it('renders validation errors in the FastAPI shape', () => {
    const err = ValidationError.at(['body', 'name'], 'Field required', 'missing');
    expect(toHttpError(err)).toEqual({
      status: 422,
      body: { detail: [{ loc: ['body', 'name'], msg: 'Field required', type: 'missing' }] },
      internal: false,
    });
  });

  it('hides unknown errors and internal errors behind an opaque 500', () => {
    expect(toHttpError(new Error('db password is hunter2'))).toEqual({
      status: 500,
      body: { detail: 'Internal Server Error' },
      internal: true,
    });
    expect(toHttpError(new InternalError('secret')).body.detail).toBe('Internal Server Error');
    expect(toHttpError('a string').status).toBe(500);
  });

  it('maps peer statuses back to error classes', () => {
    expect(errorFromHttpStatus(404, 'x')).toBeInstanceOf(NotFoundError);
    expect(errorFromHttpStatus(401, 'x')).toBeInstanceOf(AuthenticationError);
    expect(errorFromHttpStatus(418, 'x')).toBeInstanceOf(InternalError);
  });
});

describe('gRPC mapping', () => {
  it.each(cases)('%p ↔ code %#', (err, _status, code) => {
    expect(toGrpcStatus(err)).toEqual({ code, details: err.message, internal: false });
    const back = errorFromGrpcStatus(code, err.message);
    expect(back.constructor).toBe(err.constructor);
    expect(back.message).toBe(err.message);
  });

  it('sends validation errors as INVALID_ARGUMENT, which comes back as an input error', () => {
    expect(toGrpcStatus(ValidationError.at(['body', 'x'], 'bad')).code).toBe(GrpcCode.INVALID_ARGUMENT);
    expect(errorFromGrpcStatus(GrpcCode.INVALID_ARGUMENT, 'bad')).toBeInstanceOf(InputError);
  });

  it('hides unknown errors behind INTERNAL', () => {
    expect(toGrpcStatus(new TypeError('oops'))).toEqual({ code: GrpcCode.INTERNAL, details: 'Internal error', internal: true });
  });

  it('maps codes outside the table sensibly', () => {
    expect(errorFromGrpcStatus(GrpcCode.FAILED_PRECONDITION, 'x')).toBeInstanceOf(ConflictError);
    expect(errorFromGrpcStatus(GrpcCode.CANCELLED, 'x')).toBeInstanceOf(UnavailableError);
    expect(errorFromGrpcStatus(GrpcCode.UNKNOWN, 'x')).toBeInstanceOf(InternalError);
    expect(toHttpError(errorFromGrpcStatus(GrpcCode.NOT_FOUND, 'Deployment not found')).status).toBe(404);
  });

  it('retries only transient codes', () => {
    expect(isRetryableGrpcCode(GrpcCode.UNAVAILABLE)).toBe(true);
    expect(isRetryableGrpcCode(GrpcCode.INVALID_ARGUMENT)).toBe(false);
    expect(isRetryableGrpcCode(GrpcCode.DEADLINE_EXCEEDED)).toBe(false);
  });
});

describe('validationErrorFromZod', () => {
  const schema = z.object({
    name: z.string().min(1),
    limit: z.number().int().max(100).optional(),
    kind: z.enum(['a', 'b']).optional(),
    nested: z.object({ items: z.array(z.string()) }).optional(),
  });

  it('reports missing fields as pydantic does', () => {
    const result = schema.safeParse({});
    expect(validationErrorFromZod(result.error!, 'body', {}).issues).toEqual([
      { loc: ['body', 'name'], msg: 'Field required', type: 'missing' },
    ]);
  });

  it('reports each unknown field of a strict object at its location, as pydantic forbids extras', () => {
    const strict = z.strictObject({ name: z.string() });
    const input = { name: 'a', nope: 1, other: null };
    expect(validationErrorFromZod(strict.safeParse(input).error!, 'body', input).issues).toEqual([
      { loc: ['body', 'nope'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' },
      { loc: ['body', 'other'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' },
    ]);
  });

  it('reports a missing enum field as missing too', () => {
    const result = z.object({ kind: z.enum(['a', 'b']) }).safeParse({});
    expect(validationErrorFromZod(result.error!, 'body', {}).issues).toEqual([{ loc: ['body', 'kind'], msg: 'Field required', type: 'missing' }]);
  });

  it('gives the location of nested and typed problems', () => {
    const input = { name: '', limit: 500, kind: 'c', nested: { items: ['x', 3] } };
    const issues = validationErrorFromZod(schema.safeParse(input).error!, 'body', input).issues;
    expect(issues.map((i) => [i.loc, i.type])).toEqual([
      [['body', 'name'], 'string_too_short'],
      [['body', 'limit'], 'less_than_equal'],
      [['body', 'kind'], 'enum'],
      [['body', 'nested', 'items', 1], 'string_type'],
    ]);
    expect(issues.every((i) => typeof i.msg === 'string' && i.msg.length > 0)).toBe(true);
  });
});
