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

  it('e-mails into the outbox by default, and through SMTP with a sender when configured', () => {
    const outbox = readConfig({ DATA_DIR: '/srv/scout', PUBLIC_URL: 'https://scout.example.com' });
    expect(outbox.mail).toEqual({
      smtpUrl: undefined,
      from: 'Scoutbase <scoutbase@scout.example.com>',
      outboxDir: '/srv/scout/outbox',
      digestSeconds: 600,
    });
    const smtp = readConfig({ SMTP_URL: 'smtps://u:p@smtp.example.com:465', MAIL_FROM: 'Crew <crew@example.com>' });
    expect(smtp.mail).toMatchObject({ smtpUrl: 'smtps://u:p@smtp.example.com:465', from: 'Crew <crew@example.com>' });

    expect(() => readConfig({ SMTP_URL: 'smtp://smtp.example.com' })).toThrow(/MAIL_FROM: required with SMTP_URL/);
    expect(() => readConfig({ SMTP_URL: 'http://smtp.example.com', MAIL_FROM: 'a@b.c' })).toThrow(
      /SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/,
    );
    expect(() => readConfig({ SMTP_URL: 'smtp://smtp.example.com', MAIL_FROM: 'nobody' })).toThrow(
      /MAIL_FROM: must be an address such as scout@example.com/,
    );
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
    [{ MAX_UPLOAD_SIZE: 'fifty' }, 'MAX_UPLOAD_SIZE'],
    [{ STORAGE_QUOTA: '0' }, 'STORAGE_QUOTA'],
    [{ STORAGE_QUOTA: '-5GB' }, 'STORAGE_QUOTA'],
    [{ UPLOAD_GRACE_PERIOD: 'soon' }, 'UPLOAD_GRACE_PERIOD'],
    [{ UPLOADTHING_TOKEN: 'not-a-token' }, 'UPLOADTHING_TOKEN'],
    [{ S3_BUCKET: 'b', S3_ENDPOINT: 'minio:9000' }, 'S3_ENDPOINT'],
    [{ S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'only-the-id' }, 'S3_SECRET_ACCESS_KEY'],
    [{ S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: 'sometimes' }, 'S3_FORCE_PATH_STYLE'],
    [{ S3_BUCKET: 'b', S3_PREFIX: '../up' }, 'S3_PREFIX'],
    [{ S3_ENDPOINT: 'http://minio:9000' }, 'S3_BUCKET'],
  ])('refuses %o and names %s', (env, variable) => {
    expect(() => readConfig(env)).toThrow(ConfigError);
    expect(() => readConfig(env)).toThrow(new RegExp(`\\b${variable}\\b`));
  });

  it('takes map tiles from MAP_TILE_URL, by default the public OpenStreetMap ones with their attribution', () => {
    expect(readConfig({}).map).toEqual({
      tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      attribution: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
    });
    const own = readConfig({
      MAP_TILE_URL: 'http://tiles.studio.lan:8080/osm/{z}/{x}/{y}.png',
      MAP_TILE_ATTRIBUTION: 'Studio tile server',
    });
    expect(own.map).toEqual({
      tileUrl: 'http://tiles.studio.lan:8080/osm/{z}/{x}/{y}.png',
      attribution: 'Studio tile server',
    });
    expect(() => readConfig({ MAP_TILE_URL: 'tiles.example.com/{z}/{x}/{y}.png' })).toThrow(/MAP_TILE_URL: must be/);
    expect(() => readConfig({ MAP_TILE_URL: 'https://tiles.example.com/map.png' })).toThrow(
      /MAP_TILE_URL: must be .*\{z\}/,
    );
  });

  it('reads storage sizes in bytes or with units, with the spec defaults', () => {
    expect(readConfig({}).storage).toMatchObject({ maxUploadSize: 52428800, quotaBytes: 10 * 1024 ** 3 });
    const config = readConfig({ MAX_UPLOAD_SIZE: '10MB', STORAGE_QUOTA: '1.5gb', UPLOAD_GRACE_PERIOD: '2h' });
    expect(config.storage.maxUploadSize).toBe(10 * 1024 ** 2);
    expect(config.storage.quotaBytes).toBe(1.5 * 1024 ** 3);
    expect(config.storage.gracePeriodSeconds).toBe(7200);
    const token = Buffer.from(JSON.stringify({ apiKey: 'sk_live_x', appId: 'app', regions: ['sea1'] })).toString(
      'base64',
    );
    expect(readConfig({ UPLOADTHING_TOKEN: token }).storage.uploadthingToken).toBe(token);
  });

  it('turns S3 storage on with S3_BUCKET, with the region defaulting to us-east-1', () => {
    expect(readConfig({}).storage.s3).toBeUndefined();
    expect(readConfig({ S3_BUCKET: 'library' }).storage.s3).toEqual({
      bucket: 'library',
      endpoint: undefined,
      region: 'us-east-1',
      credentials: undefined,
      forcePathStyle: false,
      prefix: undefined,
    });
    expect(
      readConfig({
        S3_BUCKET: 'library',
        S3_ENDPOINT: 'http://minio.internal:9000',
        S3_REGION: 'eu-central-1',
        S3_ACCESS_KEY_ID: 'scout',
        S3_SECRET_ACCESS_KEY: 'a-long-secret',
        S3_FORCE_PATH_STYLE: 'true',
        S3_PREFIX: 'studio/library/',
      }).storage.s3,
    ).toEqual({
      bucket: 'library',
      endpoint: 'http://minio.internal:9000',
      region: 'eu-central-1',
      credentials: { accessKeyId: 'scout', secretAccessKey: 'a-long-secret' },
      forcePathStyle: true,
      prefix: 'studio/library',
    });
  });

  it('refuses UploadThing and S3 together, saying to pick one', () => {
    const token = Buffer.from(JSON.stringify({ apiKey: 'sk_live_x', appId: 'app', regions: ['sea1'] })).toString(
      'base64',
    );
    expect(() => readConfig({ UPLOADTHING_TOKEN: token, S3_BUCKET: 'library' })).toThrow(
      /UploadThing \(UPLOADTHING_TOKEN\) and an S3 bucket \(S3_BUCKET\) are both set/,
    );
  });
});
