import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PermissionFlags as P } from '@guildhall/protocol';
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { manualClock } from '../../domain/clock.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { advanceToNextTest } from '../../../test/support/fileServer.js';
import { guildFixture } from '../../../test/support/guildMembers.js';
import { multipartBody } from '../../../test/support/invites.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { TEST_DATABASE_URL, acquireSchema, releaseSchema } from '../../../test/support/postgres.js';
import { createPostgresStorage } from '../../storage/postgres/index.js';
import { createSqliteStorage } from '../../storage/sqlite/index.js';
import { startTestServer, type TestServer } from '../../../test/support/testServer.js';
import { JOB_BATCH_SIZE, JOB_LEASE_MS, JobStatus } from './jobs.js';
import { apiRequest } from '../../../test/support/inject.js';

const START_MS = Date.UTC(2026, 2, 1);

const fakeIds = (count: number, from = 200_000_000_000_000_000n) =>
  Array.from({ length: count }, (_, i) => (from + BigInt(i)).toString());

/** A target-users job outlives the node running it: the next app on the database finishes it. */
describeDrivers('durable target-user jobs on $driver', (driver) => {
  const clock = manualClock(START_MS);
  let dir: string;
  let database: string;
  // The server on the block's database. A test closes it and opens the next, which is the
  // following test's server: one start for the block, and the restarts its tests are about.
  let server: TestServer | null = null;
  let code: string;
  let botToken: string;

  const open = async () => {
    server = await startTestServer({ storage: driver, clock, database });
    return server;
  };
  const stop = async () => {
    await server?.close();
    server = null;
  };
  const jobStatus = async (running: TestServer) => {
    const url = `/invites/${code}/target-users/job-status`;
    const res = await apiRequest(running.app, `GET ${url}`, { auth: botToken });
    expect(res.statusCode, res.body).toBe(200);
    expectOpenApiResponse(res, 'GET', url);
    return res.json<{ status: number; total_users: number; processed_users: number }>();
  };
  const completed = (running: TestServer) =>
    vi.waitFor(
      async () => {
        const status = await jobStatus(running);
        if (status.status === JobStatus.PROCESSING) throw new Error('still processing');
        return status;
      },
      { timeout: 60_000, interval: 20 },
    );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'guildhall-jobs-'));
    // On PostgreSQL a migrated schema of the worker's pool, emptied again after the block.
    database = driver === 'postgres' ? acquireSchema() : join(dir, 'guildhall.db');
  });
  afterAll(async () => {
    await stop();
    if (driver === 'postgres') await releaseSchema(database);
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    // An hour past the last test: a server opened since mints its ids after every id before.
    advanceToNextTest(clock, START_MS);
    const first = server ?? (await open());
    const g = await guildFixture(first, {
      botPermissions: P.CREATE_INSTANT_INVITE | P.MANAGE_GUILD,
      nowMs: () => clock.now(),
    });
    botToken = g.bot.token;
    const [channel] = await first.app.storage.channels.listByGuild(g.guildId);
    const res = await g.call('POST', `/channels/${channel?.id ?? ''}/invites`, {
      auth: g.bot.token,
      payload: { target_user_ids: ['1001'] },
    });
    code = res.json<{ code: string }>().code;
  });

  it('finishes a job interrupted by closing the app once the database is opened again', async () => {
    const ids = fakeIds(50_000);
    const running = server as unknown as TestServer;
    const body = multipartBody({}, { target_users_file: { data: ids.join('\n') } });
    const res = await running.app.http.inject({
      method: 'PUT',
      url: `/api/v10/invites/${code}/target-users`,
      headers: { authorization: botToken, 'content-type': body.type },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(204);
    await stop();
    // Stopped mid-job: still PROCESSING, its lease released, the rest of its ids staged.
    const storage =
      driver === 'postgres'
        ? await createPostgresStorage({ connectionString: TEST_DATABASE_URL, schema: database })
        : createSqliteStorage({ filename: database });
    const stopped = await storage.invites.findJob(code);
    expect(stopped?.status).toBe(JobStatus.PROCESSING);
    expect(stopped?.processedUsers).toBeLessThan(50_000);
    const claimable = await storage.invites.listClaimableJobs(clock.now());
    expect(claimable.filter((job) => job.code === code)).toHaveLength(1);
    await storage.close();

    const reopened = await open();
    const done = await completed(reopened);
    expect(done).toMatchObject({
      status: JobStatus.COMPLETED,
      total_users: 50_000,
      processed_users: 50_000,
    });
    expect(await reopened.app.storage.invites.listTargetUsers(code)).toEqual(ids);
    const job = await reopened.app.storage.invites.findJob(code);
    expect(await reopened.app.storage.invites.nextBatch(code, job?.jobId ?? '')).toBeNull();
  }, 120_000);

  it('runs a job staged with no worker, and one whose node stopped once its lease runs out', async () => {
    const ids = fakeIds(2 * JOB_BATCH_SIZE + 5);
    const batches = [ids.slice(0, JOB_BATCH_SIZE), ids.slice(JOB_BATCH_SIZE)];
    const stage = (jobId: string) =>
      (server as unknown as TestServer).app.storage.transaction(async (tx) => {
        await tx.invites.putJob({
          code,
          jobId,
          status: JobStatus.PROCESSING,
          totalUsers: ids.length,
          processedUsers: 0,
          createdAt: clock.now(),
          completedAt: null,
          errorMessage: null,
        });
        await tx.invites.stageBatches(code, jobId, batches);
      });
    await stage('orphan');
    await stop();
    const reopened = await open();
    expect(await completed(reopened)).toMatchObject({
      status: JobStatus.COMPLETED,
      processed_users: ids.length,
    });
    expect(await reopened.app.storage.invites.countTargetUsers(code)).toBe(ids.length + 1);

    // A node that crashed holding the job's lease: nobody takes it before the lease runs out.
    await stage('crashed');
    const lease = { code, jobId: 'crashed', owner: 'gone', nowMs: clock.now() };
    expect(
      await reopened.app.storage.invites.claimJob({ ...lease, untilMs: clock.now() + 1000 }),
    ).toBe(true);
    await stop();
    const again = await open();
    expect(await jobStatus(again)).toMatchObject({
      status: JobStatus.PROCESSING,
      processed_users: 0,
    });
    clock.advance(JOB_LEASE_MS);
    const errors: unknown[] = [];
    await again.app.services.invites.resumeJobs((err) => errors.push(err));
    expect(errors).toEqual([]);
    expect(await completed(again)).toMatchObject({
      status: JobStatus.COMPLETED,
      processed_users: ids.length,
    });
  }, 120_000);
});
