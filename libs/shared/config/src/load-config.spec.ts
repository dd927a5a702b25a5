import { z } from 'zod';
import { ConfigError, loadConfig } from './load-config';
import { duration, flag, parseDuration, port, url } from './env-types';
import { commonServiceEnv, databaseUrl, natsUrl } from './common-config';

const schema = z.object({
  PORT: port(8080),
  DEBUG: flag(false),
  DATABASE_URL: databaseUrl(),
  TIMEOUT: duration(30_000),
  NAME: z.string().default('svc'),
});

describe('loadConfig', () => {
  it('applies defaults for unset and empty variables', () => {
    expect(loadConfig(schema, { DEBUG: '' })).toEqual({ PORT: 8080, DEBUG: false, TIMEOUT: 30_000, NAME: 'svc' });
  });

  it('coerces numbers, flags, urls and durations', () => {
    const config = loadConfig(schema, {
      PORT: '9000',
      DEBUG: 'Yes',
      DATABASE_URL: 'postgres://u@127.0.0.1:5432/db',
      TIMEOUT: '4h',
    });
    expect(config).toMatchObject({ PORT: 9000, DEBUG: true, DATABASE_URL: 'postgres://u@127.0.0.1:5432/db', TIMEOUT: 14_400_000 });
  });

  it('takes NATS_URL as one server or a comma-separated list of a cluster\'s seeds', () => {
    const nats = z.object({ NATS_URL: natsUrl() });
    const seeds = 'nats://nats-0:4222, nats://nats-1:4222,tls://nats-2:4222';
    expect(loadConfig(nats, { NATS_URL: 'nats://127.0.0.1:4222' }).NATS_URL).toBe('nats://127.0.0.1:4222');
    expect(loadConfig(nats, { NATS_URL: seeds }).NATS_URL).toBe(seeds);
    expect(() => loadConfig(nats, { NATS_URL: 'nats://a:4222,http://b:4222' })).toThrow(/NATS_URL: must be a nats: or tls: or ws: or wss: URL, or a comma-separated list/);
    expect(() => loadConfig(nats, { NATS_URL: 'nats://a:4222,,nats://b:4222' })).toThrow(/NATS_URL/);
  });

  it('names a bad secret without its value', () => {
    const secrets = z.object({ INTERNAL_SECRET: z.string().min(16), DEPLOYMENT_KEY: z.string().min(32) });
    expect(() => loadConfig(secrets, { INTERNAL_SECRET: 'short-secret', DEPLOYMENT_KEY: 'short-key' })).toThrow(
      'INTERNAL_SECRET: Too small: expected string to have >=16 characters (got 12 characters)',
    );
    try {
      loadConfig(secrets, { INTERNAL_SECRET: 'short-secret', DEPLOYMENT_KEY: 'short-key' });
    } catch (err) {
      expect((err as ConfigError).message).not.toMatch(/short-secret|short-key/);
      expect((err as ConfigError).problems).toEqual([expect.stringMatching(/^INTERNAL_SECRET: .*\(got 12 characters\)$/), expect.stringMatching(/^DEPLOYMENT_KEY: .*\(got 9 characters\)$/)]);
    }
  });

  it('names every bad variable with its value', () => {
    const attempt = () => loadConfig(schema, { PORT: '70000', DEBUG: 'maybe', DATABASE_URL: 'mysql://x', TIMEOUT: 'soon' });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (err) {
      const problems = (err as ConfigError).problems.join('\n');
      expect(problems).toContain('PORT');
      expect(problems).toContain('"70000"');
      expect(problems).toContain('DEBUG: must be true or false');
      expect(problems).toContain('DATABASE_URL: must be a postgres: or postgresql: URL');
      expect(problems).toContain('TIMEOUT');
    }
  });

  it('reports a missing required variable as unset', () => {
    const common = z.object(commonServiceEnv({ httpPort: 1 }));
    expect(() => loadConfig(common, {})).toThrow(/INTERNAL_SECRET: .*\(unset\)/);
  });

  it('only reads the variables of its schema', () => {
    expect(loadConfig(z.object({ A: z.string() }), { A: 'a', B: 'b' })).toEqual({ A: 'a' });
  });
});

describe('parseDuration', () => {
  it.each([
    ['250', 250],
    ['250ms', 250],
    ['1.5s', 1500],
    ['10m', 600_000],
    ['72h', 259_200_000],
    ['1d', 86_400_000],
  ])('%s → %d ms', (text, ms) => expect(parseDuration(text)).toBe(ms));

  it.each(['', 'abc', '-1s', '5 weeks'])('rejects %p', (text) => expect(parseDuration(text)).toBeUndefined());
});

describe('url', () => {
  it('accepts any protocol when none is named', () => {
    expect(url().safeParse('http://x').success).toBe(true);
    expect(url().safeParse('not a url').success).toBe(false);
  });
});
