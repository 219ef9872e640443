import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../config.ts';

describe('import configuration', () => {
  it('defaults to a folder in the data directory and no OAuth sources', () => {
    const config = readConfig({ DATA_DIR: '/srv/scout' });
    expect(config.imports).toEqual({ dir: '/srv/scout/import', googleDrive: undefined, dropbox: undefined });
  });

  it('takes IMPORT_DIR (resolved) or off', () => {
    expect(readConfig({ IMPORT_DIR: 'drop' }).imports.dir).toBe(path.resolve('drop'));
    expect(readConfig({ IMPORT_DIR: 'OFF' }).imports.dir).toBeUndefined();
  });

  it('turns Google Drive and Dropbox on with both client id and secret, base URLs without a trailing slash', () => {
    const config = readConfig({
      GOOGLE_DRIVE_CLIENT_ID: 'gid',
      GOOGLE_DRIVE_CLIENT_SECRET: 'gsecret',
      DROPBOX_CLIENT_ID: 'did',
      DROPBOX_CLIENT_SECRET: 'dsecret',
      DROPBOX_API_URL: 'http://127.0.0.1:4000/',
    });
    expect(config.imports.googleDrive).toEqual({
      clientId: 'gid',
      clientSecret: 'gsecret',
      authUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      apiUrl: 'https://www.googleapis.com',
    });
    expect(config.imports.dropbox).toMatchObject({
      tokenUrl: 'http://127.0.0.1:4000/oauth2/token',
      apiUrl: 'http://127.0.0.1:4000',
      contentUrl: 'https://content.dropboxapi.com',
    });
  });

  it('refuses half a client, and base URLs that are not URLs', () => {
    expect(() => readConfig({ DROPBOX_CLIENT_ID: 'did' })).toThrow(/DROPBOX_CLIENT_SECRET: set both/);
    expect(() => readConfig({ GOOGLE_DRIVE_CLIENT_SECRET: 's' })).toThrow(/GOOGLE_DRIVE_CLIENT_ID: set both/);
    expect(() => readConfig({ GOOGLE_DRIVE_API_URL: 'not a url' })).toThrow(ConfigError);
  });
});
