import { validationErrorFromZod } from '@platform/errors';
import { parseRequest } from '@platform/http-server';
import { createDestinationSchema } from './destination.schema';

/** The 422 issues `parseRequest` answers for a bad body. */
const issues = (body: unknown) => validationErrorFromZod(createDestinationSchema.safeParse(body).error!, 'body', body).issues;

describe('destination requests', () => {
  const destination = { destination_type: 's3', display_name: 'd', config: { bucket_name: 'b', prefix: 'p' }, credentials: { access_key_id: 'a', secret_access_key: 's' } };

  it('requires prefix (the bucket root is an explicit ""), defaults include_bucket_in_prefix; credentials may be omitted', () => {
    expect(parseRequest(createDestinationSchema, destination).config).toMatchObject({ prefix: 'p', include_bucket_in_prefix: false });
    const missing = { ...destination, config: { bucket_name: 'b' } };
    expect(issues(missing)).toEqual([{ loc: ['body', 'config', 'prefix'], msg: 'Field required', type: 'missing' }]);
    expect(issues({ ...destination, config: { bucket_name: 'b', prefix: null } })[0].loc).toEqual(['body', 'config', 'prefix']);
    expect(parseRequest(createDestinationSchema, { ...destination, config: { bucket_name: 'b', prefix: '' } }).config.prefix).toBe('');
    expect(parseRequest(createDestinationSchema, { ...destination, credentials: undefined }).credentials).toBeUndefined();
  });

  it('rejects a bad endpoint, type or addressing style', () => {
    expect(issues({ ...destination, destination_type: 'gcs' })[0].loc).toEqual(['body', 'destination_type']);
    expect(issues({ ...destination, config: { bucket_name: 'b', prefix: 'p', endpoint_url: 'not a url' } })[0].loc).toEqual([
      'body',
      'config',
      'endpoint_url',
    ]);
    expect(
      issues({ ...destination, config: { bucket_name: 'b', prefix: 'p', config_kwargs_s3: { addressing_style: 'x' } } })[0].loc,
    ).toEqual(['body', 'config', 'config_kwargs_s3', 'addressing_style']);
    expect(issues({ ...destination, credentials: { access_key_id: 'a' } })[0]).toMatchObject({
      loc: ['body', 'credentials', 'secret_access_key'],
      type: 'missing',
    });
  });
});
