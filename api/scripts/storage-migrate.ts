// pnpm storage:migrate --to s3 | --to local
// Copies every object of the library (files, their versions and thumbnails) from the data folder
// to the S3 bucket, or back, each verified by sha256. Run it while the server runs, again right
// before switching (it copies only what is new or different), then switch as it says. Nothing is
// deleted from the source.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, readConfig } from '../src/config.ts';
import { copyObjects, MigrationError } from '../src/infra/objects/migrate.ts';
import { S3ObjectStore } from '../src/infra/objects/s3.ts';
import { LocalObjectStore } from '../src/infra/objects/store.ts';
import { exitOnKnownError } from './cli.ts';

try {
  const { values } = parseArgs({ options: { to: { type: 'string' } }, strict: true });
  if (values.to !== 's3' && values.to !== 'local') {
    throw new ConfigError('Say where the objects go: pnpm storage:migrate --to s3, or --to local');
  }
  const config = readConfig(process.env);
  const s3 = config.storage.s3;
  if (!s3) {
    throw new ConfigError(
      'Set S3_BUCKET (with S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE, S3_PREFIX as your bucket needs) for this command: it copies between DATA_DIR/objects and that bucket.',
    );
  }
  const local = new LocalObjectStore(path.join(config.dataDir, 'objects'));
  const bucket = new S3ObjectStore(s3);
  const [from, to] = values.to === 's3' ? [local, bucket] : [bucket, local];
  const where = `s3://${s3.bucket}/${s3.prefix ? `${s3.prefix}/` : ''}`;
  console.log(values.to === 's3' ? `Copying ${local.root} to ${where}` : `Copying ${where} to ${local.root}`);
  const report = await copyObjects(from, to, {
    onObject: (_key, r) => {
      if ((r.copied + r.skipped) % 500 === 0) console.log(`  ${r.copied} copied, ${r.skipped} already there`);
    },
  });
  console.log(
    `Done: ${report.copied} object(s) copied (${(report.bytes / 1024 ** 2).toFixed(1)} MB), ${report.skipped} already there with the same sha256; every copy verified. Nothing was deleted from the source.`,
  );
  console.log(
    values.to === 's3'
      ? `To switch: put these S3_* settings into every app server's environment and restart them. Objects uploaded until then are copied by running this command once more right before the restart. Remove ${local.root} only once you are satisfied.`
      : `To switch: remove S3_BUCKET (and the other S3_* settings) from the server's environment and restart it. Objects uploaded until then are copied by running this command once more right before the restart; the bucket is left as it is.`,
  );
} catch (error) {
  exitOnKnownError(error, [MigrationError]);
}
