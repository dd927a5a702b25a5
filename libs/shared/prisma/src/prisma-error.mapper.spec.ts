import { ConflictError, NotFoundError } from '@platform/errors';
import { mapPrismaError } from './prisma-error.mapper';

function prismaError(code: string, meta?: Record<string, unknown>): Error {
  return Object.assign(new Error(`prisma ${code}`), { code, meta });
}

describe('mapPrismaError', () => {
  it('turns P2002 into a ConflictError naming the fields', () => {
    const mapped = mapPrismaError(prismaError('P2002', { target: ['tenant_id', 'name'] }));
    expect(mapped).toBeInstanceOf(ConflictError);
    expect((mapped as Error).message).toBe('a record with the same tenant_id, name already exists');
  });

  it('reads the fields from a driver adapter error', () => {
    const mapped = mapPrismaError(
      prismaError('P2002', { driverAdapterError: { cause: { constraint: { fields: ['"name"'] } } } }),
    );
    expect((mapped as Error).message).toContain('"name"');
  });

  it('turns P2025 into a NotFoundError, with a caller message when given', () => {
    const err = prismaError('P2025', { cause: 'No record was found for an update.' });
    expect(mapPrismaError(err)).toEqual(expect.any(NotFoundError));
    expect((mapPrismaError(err) as Error).message).toBe('No record was found for an update.');
    expect((mapPrismaError(err, { notFound: 'deployment not found' }) as Error).message).toBe('deployment not found');
  });

  it('keeps the Prisma error as the cause', () => {
    const err = prismaError('P2002');
    expect((mapPrismaError(err, { conflict: 'taken' }) as Error).cause).toBe(err);
  });

  it('returns other errors unchanged', () => {
    const other = prismaError('P2003');
    const plain = new Error('boom');
    expect(mapPrismaError(other)).toBe(other);
    expect(mapPrismaError(plain)).toBe(plain);
    expect(mapPrismaError('text')).toBe('text');
  });
});
