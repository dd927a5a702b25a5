import { controlPlaneEnv, natsPrefix, serviceDatabaseName } from './launch-env';

describe('the launcher environment (npm start)', () => {
  it('passes only the control-plane settings that are set: an unset PUBLIC_URL never reaches the control plane as undefined', () => {
    const env = controlPlaneEnv({ GIT_ALLOWED_URLS: 'file://', PUBLIC_URL: undefined });
    expect(env).toEqual({ GIT_ALLOWED_URLS: 'file://' });
    expect('PUBLIC_URL' in env).toBe(false);
  });

  it("derives DEPLOYMENTS_DATABASE_URL from DATABASE_URL, else from the control plane's own DATABASE_URL_CONTROL_PLANE", () => {
    expect(controlPlaneEnv({ DATABASE_URL: 'postgres://db/postgres' }).DEPLOYMENTS_DATABASE_URL).toBe('postgres://db/postgres');
    expect(controlPlaneEnv({ DATABASE_URL_CONTROL_PLANE: 'postgres://db/cp' }).DEPLOYMENTS_DATABASE_URL).toBe('postgres://db/cp');
    expect(controlPlaneEnv({ DEPLOYMENTS_DATABASE_URL: 'postgres://other/x', DATABASE_URL: 'postgres://db/postgres' }).DEPLOYMENTS_DATABASE_URL).toBe('postgres://other/x');
    expect(controlPlaneEnv({}).DEPLOYMENTS_DATABASE_URL).toBeUndefined();
  });

  it('honours DEPLOYMENTS_DATABASE_PREFIX, and names every database after DATABASE_PREFIX', () => {
    expect(controlPlaneEnv({ DEPLOYMENTS_DATABASE_PREFIX: 'mine_' }).DEPLOYMENTS_DATABASE_PREFIX).toBe('mine_');
    expect(controlPlaneEnv({ DATABASE_PREFIX: 'staging_' }).DEPLOYMENTS_DATABASE_PREFIX).toBe('staging_deployment_');
    expect(serviceDatabaseName({ DATABASE_PREFIX: 'staging_' }, 'control-plane')).toBe('staging_control_plane');
    expect(serviceDatabaseName({}, 'agent-server')).toBe('platform_agent_server');
  });

  it('names the NATS streams after NATS_PREFIX, else after DATABASE_PREFIX', () => {
    expect(natsPrefix({ NATS_PREFIX: 'blue' })).toBe('blue');
    expect(natsPrefix({ DATABASE_PREFIX: 'staging_' })).toBe('staging');
    expect(natsPrefix({})).toBe('');
  });
});
