import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from './config.ts';

describe('configuration', () => {
  it('runs on the embedded defaults with nothing set', () => {
    const config = readConfig({});
    expect(config.port).toBe(3000);
    expect(config.database.kind).toBe('embedded');
    expect(config.auth.google).toBeUndefined();
    expect(config.auth.allowSignup).toBe(true);
    expect(config.redisUrl).toBeUndefined();
    expect(config.ai.anthropicApiKey).toBeUndefined();
  });

  it('shares live updates through Redis and uses Claude when they are configured', () => {
    const config = readConfig({
      REDIS_URL: 'redis://cache.internal:6379/0',
      ANTHROPIC_API_KEY: 'sk-ant-test',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9999',
    });
    expect(config.redisUrl).toBe('redis://cache.internal:6379/0');
    expect(config.ai).toMatchObject({ anthropicApiKey: 'sk-ant-test', anthropicBaseUrl: 'http://127.0.0.1:9999' });
  });

  it('switches to PostgreSQL and Google when they are configured', () => {
    const config = readConfig({
      DATABASE_URL: 'postgres://app@db.internal:5432/scoutbase',
      AUTH_GOOGLE_ID: 'id',
      AUTH_GOOGLE_SECRET: 'secret',
      PORT: '8080',
      DATA_DIR: '/srv/scoutbase',
    });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://app@db.internal:5432/scoutbase' });
    expect(config.auth.google?.issuer).toBe('https://accounts.google.com');
    expect(config.port).toBe(8080);
    expect(config.dataDir).toBe('/srv/scoutbase');
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ ALLOW_SIGNUP: 'maybe' }, 'ALLOW_SIGNUP'],
    [{ AUTH_GOOGLE_ID: 'only-the-id' }, 'AUTH_GOOGLE_SECRET'],
    [{ AUTH_SECRET: 'short' }, 'AUTH_SECRET'],
    [{ NODE_ENV: 'production' }, 'AUTH_SECRET'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL'],
    [{ ANTHROPIC_BASE_URL: 'not a url' }, 'ANTHROPIC_BASE_URL'],
  ])('refuses %o and names %s', (env, variable) => {
    expect(() => readConfig(env)).toThrow(ConfigError);
    expect(() => readConfig(env)).toThrow(new RegExp(`\\b${variable}\\b`));
  });
});
