/**
 * An S3-compatible server for the tests (test/support/s3Server.ts starts it in a child process):
 * s3rver (the maintained fork @20minutes/s3rver), keeping its objects in the folder given as the
 * first argument, with one bucket, `guildhall`. Prints `s3 listening on PORT` once it listens;
 * stops on SIGTERM.
 *
 * It runs under `--openssl-legacy-provider`: s3rver makes ListObjectsV2 continuation tokens with
 * DES, which OpenSSL 3 keeps there. Signatures are computed but not enforced
 * (`allowMismatchedSignatures`): s3rver drops the trailing slash the AWS SDK v3 signs on bucket
 * requests (`PUT /bucket/`), so every list would be refused; the access key id must still be
 * S3RVER's own.
 */
import S3rver from '@20minutes/s3rver';

const directory = process.argv[2];
if (directory === undefined) {
  process.stderr.write('usage: s3ServerMain.ts FOLDER\n');
  process.exit(2);
}
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory,
  allowMismatchedSignatures: true,
  configureBuckets: [{ name: 'guildhall' }],
});
const { port } = await server.run();
process.stdout.write(`s3 listening on ${String(port)}\n`);
process.once('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
