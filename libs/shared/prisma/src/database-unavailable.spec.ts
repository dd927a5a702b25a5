import { ConflictError, ServiceUnavailableError, toHttpError } from '@platform/errors';
import { asDatabaseUnavailable, isConnectFailure, isDatabaseUnavailable, retryWhileUnavailable } from './database-unavailable';
import { unwrapDatabaseUnavailable } from './database-unavailable';

// The shapes measured on a scratch Postgres restarted (`-m fast`, `-m immediate`) and stopped under load.
const pgError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'FATAL' });
const socketError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code, errno: -111, syscall: 'connect' });
const adapterError = (cause: Record<string, unknown>) => Object.assign(new Error('adapter'), { name: 'DriverAdapterError', cause });
const prismaError = (code: string, meta: Record<string, unknown> = {}) => Object.assign(new Error(`prisma ${code}`), { code, meta, clientVersion: '6.19.3' });

describe('database unavailable', () => {
  it.each([
    ['57P01 admin shutdown', pgError('57P01', 'terminating connection due to administrator command')],
    ['57P03 starting up', pgError('57P03', 'the database system is starting up')],
    ['08006 connection failure', pgError('08006', 'connection failure')],
    ['ECONNREFUSED', socketError('ECONNREFUSED')],
    ['ECONNRESET', socketError('ECONNRESET')],
    ['a connection cut without a code', new Error('Connection terminated unexpectedly')],
    ['a broken client', new Error('Client has encountered a connection error and is not queryable')],
    ['the pool connect timeout', new Error('timeout exceeded when trying to connect')],
    ['P1001', prismaError('P1001')],
    ['P1017', prismaError('P1017')],
    ['P2010 of a 57P01', prismaError('P2010', { driverAdapterError: adapterError({ kind: 'postgres', originalCode: '57P01' }) })],
    ['the adapter\'s DatabaseNotReachable', adapterError({ kind: 'DatabaseNotReachable', host: '127.0.0.1', port: 5432 })],
    ['the adapter\'s 57P03', adapterError({ kind: 'postgres', originalCode: '57P03', code: '57P03' })],
  ])('recognises %s and maps it to a 503 "database unavailable"', (_name, err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
    const mapped = asDatabaseUnavailable(err);
    expect(mapped).toBeInstanceOf(ServiceUnavailableError);
    expect(toHttpError(mapped)).toMatchObject({ status: 503, body: { detail: 'database unavailable' }, retryAfterSeconds: 2 });
  });

  it.each([
    ['a unique violation', pgError('23505', 'duplicate key')],
    ['a syntax error', pgError('42601', 'syntax error')],
    ['P2002', prismaError('P2002')],
    ['a platform error', new ConflictError('busy')],
    ['a plain error', new Error('boom')],
  ])('leaves %s alone', (_name, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
    expect(asDatabaseUnavailable(err)).toBe(err);
  });

  it('tells a failure to connect (nothing ran) from a statement cut mid-flight', () => {
    expect(isConnectFailure(socketError('ECONNREFUSED'))).toBe(true);
    expect(isConnectFailure(pgError('57P03', 'the database system is starting up'))).toBe(true);
    expect(isConnectFailure(adapterError({ kind: 'DatabaseNotReachable' }))).toBe(true);
    expect(isConnectFailure(new Error('Connection terminated unexpectedly'))).toBe(false);
    expect(isConnectFailure(pgError('57P01', 'terminating connection due to administrator command'))).toBe(false);
  });

  it('gives back the ServiceUnavailableError Prisma re-wrapped with its code', () => {
    const rewrapped = Object.assign(new Error('Invalid `prisma.thread.create()` invocation: database unavailable'), { code: 'unavailable' });
    expect(unwrapDatabaseUnavailable(rewrapped)).toBeInstanceOf(ServiceUnavailableError);
    expect(unwrapDatabaseUnavailable(prismaError('P2002'))).not.toBeInstanceOf(ServiceUnavailableError);
  });

  it('runs an operation again while it cannot connect, then succeeds', async () => {
    let calls = 0;
    const result = await retryWhileUnavailable(async () => {
      calls++;
      if (calls < 3) throw socketError('ECONNREFUSED');
      return 'ok';
    });
    expect(result).toBe('ok');
    expect(calls).toBe(3);
  });

  it('does not run again a statement cut mid-flight, and fails it as unavailable', async () => {
    let calls = 0;
    const failing = retryWhileUnavailable(async () => {
      calls++;
      throw new Error('Connection terminated unexpectedly');
    });
    await expect(failing).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(calls).toBe(1);
  });
});
