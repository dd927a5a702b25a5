import { PGlite } from '@electric-sql/pglite';
import { createPgliteAdapter } from './pglite-adapter';

describe('createPgliteAdapter', () => {
  let pglite: PGlite;

  beforeAll(async () => {
    pglite = await PGlite.create();
    await pglite.exec('CREATE TABLE t (id int PRIMARY KEY, name text NOT NULL)');
  }, 30_000);
  afterAll(() => pglite.close());

  const insert = { sql: 'INSERT INTO t VALUES ($1, $2)', args: [1, 'a'], argTypes: [] } as never;

  it('reports a unique violation the way Prisma maps to P2002, inside transactions too', async () => {
    const adapter = await createPgliteAdapter(pglite).connect();
    await adapter.executeRaw(insert);
    await expect(adapter.executeRaw(insert)).rejects.toMatchObject({
      name: 'DriverAdapterError',
      cause: { kind: 'UniqueConstraintViolation', constraint: { fields: ['id'] }, originalCode: '23505' },
    });

    const tx = await adapter.startTransaction();
    await expect(tx.executeRaw(insert)).rejects.toMatchObject({ cause: { kind: 'UniqueConstraintViolation' } });
    await tx.rollback();
  });

  it('leaves other database errors as they are', async () => {
    const adapter = await createPgliteAdapter(pglite).connect();
    await expect(adapter.queryRaw({ sql: 'SELECT 1/0', args: [], argTypes: [] } as never)).rejects.toMatchObject({
      cause: { kind: 'postgres', code: '22012' },
    });
  });

  it('passes Bytes arguments (base64 strings from Prisma) to PGlite as bytes', async () => {
    const adapter = await createPgliteAdapter(pglite).connect();
    const query = {
      sql: 'SELECT $1::bytea AS a, $2::bytea AS b, $3::text AS c',
      args: [Buffer.from('hi').toString('base64'), [1, 2], 'aGk='],
      argTypes: [{ scalarType: 'bytes' }, { scalarType: 'bytes' }, { scalarType: 'string' }],
    } as never;

    const result = await adapter.queryRaw(query);

    // The adapter returns bytea as an array of byte values.
    expect(result.rows[0]).toEqual([[104, 105], [1, 2], 'aGk=']);
  });
});
