import { PermissionFlags as P } from '@guildhall/protocol';
import type { LightMyRequestResponse } from 'fastify';
import { beforeEach, expect, it, vi } from 'vitest';
import { CHANNEL_LIST_VISIBILITY_FROM_MS } from '../../domain/permissions.js';
import { fabricatedId, useClockedServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { guildFixture, type GuildFixture } from '../../../test/support/guildMembers.js';
import { multipartBody } from '../../../test/support/invites.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { type TestServer } from '../../../test/support/testServer.js';
import { MAX_TARGET_USERS_FILE_BYTES } from './csv.js';
import { JobStatus } from './jobs.js';
import { apiRequest } from '../../../test/support/inject.js';

/** The earliest a test starts at: after the permission splits. */
const EARLIEST = Date.UTC(2026, 2, 1);

interface JobStatusBody {
  status: number;
  total_users: number;
  processed_users: number;
  created_at: string | null;
  completed_at: string | null;
  error_message: string | null;
}

const errorCode = (res: LightMyRequestResponse) => res.json<{ code: number }>().code;
/** Ids that look like users' (no user needs to exist to be listed). */
const fakeIds = (count: number, from = 100_000_000_000_000_000n) =>
  Array.from({ length: count }, (_, i) => (from + BigInt(i)).toString());

describeDrivers('invite target users on $driver', (driver) => {
  let server: TestServer;
  let g: GuildFixture;
  let code: string;
  const shared = useClockedServer({ storage: driver }, 'api-clock', {
    from: EARLIEST,
    until: CHANNEL_LIST_VISIBILITY_FROM_MS,
  });
  const { clock } = shared;
  beforeEach(async () => {
    server = shared.server;
    g = await guildFixture(server, {
      botPermissions: P.CREATE_INSTANT_INVITE | P.MANAGE_GUILD,
      nowMs: () => clock.now(),
    });
    const [channel] = await server.app.storage.channels.listByGuild(g.guildId);
    const res = await g.call('POST', `/channels/${channel?.id ?? ''}/invites`, {
      auth: g.bot.token,
      payload: { target_user_ids: ['1001', '1002'] },
    });
    code = res.json<{ code: string }>().code;
  });

  const base = () => `/invites/${code}/target-users`;
  const listed = () => server.app.storage.invites.listTargetUsers(code);
  const upload = (csv: string | Buffer, auth = g.bot.token) => {
    const body = multipartBody({}, { target_users_file: { data: csv } });
    return apiRequest(server.app, `PUT ${base()}`, {
      auth,
      headers: { 'content-type': body.type },
      payload: body.payload,
    });
  };
  const jobStatus = async (auth = g.bot.token) => {
    const res = await g.call('GET', `${base()}/job-status`, auth);
    expect(res.statusCode, res.body).toBe(200);
    expectOpenApiResponse(res, 'GET', `${base()}/job-status`);
    return res.json<JobStatusBody>();
  };
  const completed = () =>
    vi.waitFor(
      async () => {
        const status = await jobStatus();
        if (status.status === JobStatus.PROCESSING) throw new Error('still processing');
        return status;
      },
      { timeout: 60_000, interval: 20 },
    );

  it('reads the list as CSV: a user_id header, then one id per line', async () => {
    const res = await g.call('GET', base(), g.bot.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.body).toBe('user_id\n1001\n1002\n');
  });

  it('lets the inviter, MANAGE_GUILD or VIEW_AUDIT_LOG read; only the first two change', async () => {
    const mal = await g.join('mal');
    for (const [method, url] of [
      ['GET', base()],
      ['GET', `${base()}/job-status`],
    ] as const) {
      const res = await g.call(method, url, mal.token);
      expect(res.statusCode).toBe(403);
      expect(errorCode(res)).toBe(50013);
      expectOpenApiResponse(res, method, url);
    }
    for (const [method, url, payload] of [
      ['PUT', `${base()}/1003`, undefined],
      ['DELETE', `${base()}/1001`, undefined],
      ['POST', `${base()}/bulk-add`, { user_ids: ['1003'] }],
      ['POST', `${base()}/bulk-delete`, { user_ids: ['1001'] }],
    ] as const) {
      const res = await g.call(method, url, { auth: mal.token, payload });
      expect(res.statusCode, url).toBe(403);
      expect(errorCode(res)).toBe(50013);
    }
    expect((await upload('1003\n', mal.token)).statusCode).toBe(403);
    // VIEW_AUDIT_LOG reads, but does not change.
    const auditor = await server.app.storage.roles.create({
      id: fabricatedId(g.guildId),
      guildId: g.guildId,
      name: 'auditor',
      permissions: P.VIEW_AUDIT_LOG,
      position: 1,
      color: 0,
      hoist: false,
      mentionable: false,
      managed: false,
      botUserId: null,
      flags: 0,
    });
    const ann = await g.join('ann', { roleIds: [auditor.id] });
    expect((await g.call('GET', base(), ann.token)).statusCode).toBe(200);
    expect((await g.call('PUT', `${base()}/1003`, ann.token)).statusCode).toBe(403);
    // The owner holds MANAGE_GUILD.
    expect((await g.call('PUT', `${base()}/1003`, g.owner.token)).statusCode).toBe(204);
    expect(await listed()).toEqual(['1001', '1002', '1003']);
  });

  it('changes the list in place, one user or many', async () => {
    expect((await g.call('PUT', `${base()}/1003`, g.bot.token)).statusCode).toBe(204);
    expect((await g.call('DELETE', `${base()}/1001`, g.bot.token)).statusCode).toBe(204);
    const added = await g.call('POST', `${base()}/bulk-add`, {
      auth: g.bot.token,
      payload: { user_ids: ['1004', '1005', '1003'] },
    });
    expect(added.statusCode).toBe(204);
    const removed = await g.call('POST', `${base()}/bulk-delete`, {
      auth: g.bot.token,
      payload: { user_ids: ['1002', '1005', '9999'] },
    });
    expect(removed.statusCode).toBe(204);
    expect(await listed()).toEqual(['1003', '1004']);
  });

  it('refuses bad in-place input with 50035 and unknown codes with 10006', async () => {
    for (const payload of [
      {},
      { user_ids: [] },
      { user_ids: ['x'] },
      { user_ids: ['18446744073709551616'] },
      { user_ids: fakeIds(1001) },
      { user_ids: ['1', '1'] },
    ]) {
      const res = await g.call('POST', `${base()}/bulk-add`, { auth: g.bot.token, payload });
      expect(res.statusCode).toBe(400);
      expect(errorCode(res)).toBe(50035);
    }
    expect(errorCode(await g.call('PUT', `${base()}/abc`, g.bot.token))).toBe(50035);
    expect(errorCode(await g.call('PUT', '/invites/nope/target-users/1', g.bot.token))).toBe(10006);
    const csv = await g.call('GET', '/invites/nope/target-users', g.bot.token);
    expect(errorCode(csv)).toBe(10006);
    expectOpenApiResponse(csv, 'GET', '/invites/nope/target-users');
    expect(await listed()).toEqual(['1001', '1002']);
  });

  it('answers 10129 without target users and 10124 without a job', async () => {
    await g.call('POST', `${base()}/bulk-delete`, {
      auth: g.bot.token,
      payload: { user_ids: ['1001', '1002'] },
    });
    const none = await g.call('GET', base(), g.bot.token);
    expect(none.statusCode).toBe(404);
    expect(errorCode(none)).toBe(10129);
    expectOpenApiResponse(none, 'GET', base());
    const noJob = await g.call('GET', `${base()}/job-status`, g.bot.token);
    expect(noJob.statusCode).toBe(404);
    expect(errorCode(noJob)).toBe(10124);
    expectOpenApiResponse(noJob, 'GET', `${base()}/job-status`);
  });

  it('replaces the whole list from a file, as a job', async () => {
    const res = await upload('\uFEFFuser_id\r\n2001\r\n"2002"\r\n2001\r\n\r\n 0003 \r\n');
    expect(res.statusCode).toBe(204);
    expectOpenApiResponse(res, 'PUT', base());
    const status = await completed();
    expect(status).toEqual({
      status: JobStatus.COMPLETED,
      total_users: 3,
      processed_users: 3,
      created_at: new Date(shared.startedAt).toISOString(),
      completed_at: new Date(shared.startedAt).toISOString(),
      error_message: null,
    });
    expect(await listed()).toEqual(['3', '2001', '2002']);
  });

  it('names each bad line of a hostile file and changes nothing', async () => {
    const lines = [
      'user_id',
      '2001',
      '=HYPERLINK("http://evil.test","x")',
      '-1',
      '18446744073709551616',
      '2002,2003',
      '9'.repeat(5000),
      'abc\u0000\u001b[31mred',
      '<script>alert(1)</script>',
    ];
    const res = await upload(lines.join('\n'));
    expect(res.statusCode).toBe(400);
    expectOpenApiResponse(res, 'PUT', base());
    const body = res.json<{
      code: number;
      target_users_file: string[];
      errors: { target_users_file: { _errors: { message: string }[] } };
    }>();
    expect(body.code).toBe(50035);
    expect(body.target_users_file).toEqual([
      'Line 3: "=HYPERLINK(\\"http://evil.test\\",\\"x…" is not a valid user id.',
      'Line 4: "-1" is not a valid user id.',
      'Line 5: "18446744073709551616" is not a valid user id.',
      'Line 6: "2002,2003" is not a valid user id.',
      `Line 7: "${'9'.repeat(32)}…" is not a valid user id.`,
      'Line 8: "abc??[31mred" is not a valid user id.',
      'Line 9: "<script>alert(1)</script>" is not a valid user id.',
    ]);
    expect(body.errors.target_users_file._errors.map((e) => e.message)).toEqual(
      body.target_users_file,
    );
    expect(await listed()).toEqual(['1001', '1002']);
    expect(errorCode(await g.call('GET', `${base()}/job-status`, g.bot.token))).toBe(10124);
    // A file of nothing but a header lists nobody: refused too.
    expect(errorCode(await upload('user_id\n'))).toBe(50035);
    // No file at all.
    const empty = multipartBody({ other: 'x' });
    const missing = await server.app.http.inject({
      method: 'PUT',
      url: `/api/v10${base()}`,
      headers: { authorization: g.bot.token, 'content-type': empty.type },
      payload: empty.payload,
    });
    expect(errorCode(missing)).toBe(50035);
  });

  it('refuses a file over the size limit with 40005', async () => {
    const res = await upload(Buffer.alloc(MAX_TARGET_USERS_FILE_BYTES + 100_000, '1'));
    expect(res.statusCode).toBe(413);
    expect(errorCode(res)).toBe(40005);
    expectOpenApiResponse(res, 'PUT', base());
    expect(await listed()).toEqual(['1001', '1002']);
  });

  it('creates an invite with a target users file (multipart + payload_json)', async () => {
    const [channel] = await server.app.storage.channels.listByGuild(g.guildId);
    const url = `/channels/${channel?.id ?? ''}/invites`;
    const body = multipartBody(
      { payload_json: JSON.stringify({ max_uses: 3, target_user_ids: ['3003', '3001'] }) },
      { target_users_file: { data: 'user_id\n3001\n3002\n' } },
    );
    const res = await server.app.http.inject({
      method: 'POST',
      url: `/api/v10${url}`,
      headers: { authorization: g.bot.token, 'content-type': body.type },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    expectOpenApiResponse(res, 'POST', url);
    const created = res.json<{ code: string; max_uses: number }>();
    expect(created.max_uses).toBe(3);
    code = created.code;
    expect((await completed()).total_users).toBe(3);
    expect(await listed()).toEqual(['3001', '3002', '3003']);
    const bad = multipartBody({ payload_json: '{not json' });
    const refused = await server.app.http.inject({
      method: 'POST',
      url: `/api/v10${url}`,
      headers: { authorization: g.bot.token, 'content-type': bad.type },
      payload: bad.payload,
    });
    expect(errorCode(refused)).toBe(50109);
  });

  it('processes 100,000 ids in the background while other requests are served', async () => {
    const ids = fakeIds(100_000);
    const res = await upload(`user_id\n${ids.join('\n')}\n`);
    expect(res.statusCode).toBe(204);
    // Requests made while the job runs are answered while it is still processing.
    const [invite, during] = await Promise.all([
      g.call('GET', `/invites/${code}`, ''),
      jobStatus(),
    ]);
    expect(invite.statusCode).toBe(200);
    expect(during.status).toBe(JobStatus.PROCESSING);
    expect(during.total_users).toBe(100_000);
    expect(during.processed_users).toBeLessThan(100_000);
    // Another node would read the same state: it is in the database.
    const stored = await server.app.storage.invites.findJob(code);
    expect(stored?.status).toBe(JobStatus.PROCESSING);
    const done = await completed();
    expect(done).toMatchObject({
      status: JobStatus.COMPLETED,
      total_users: 100_000,
      processed_users: 100_000,
      error_message: null,
    });
    expect(await server.app.storage.invites.countTargetUsers(code)).toBe(100_000);
  }, 120_000);

  it('lets a newer upload replace a running job', async () => {
    expect((await upload(fakeIds(20_000).join('\n'))).statusCode).toBe(204);
    expect((await upload('5001\n5002\n')).statusCode).toBe(204);
    const status = await completed();
    expect(status).toMatchObject({ status: JobStatus.COMPLETED, total_users: 2 });
    // Let a batch of the older run that was under way finish; it must not add to the list.
    await new Promise((resolve) => setImmediate(resolve));
    expect(await listed()).toEqual(['5001', '5002']);
  }, 60_000);
});
