import { expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { useSearchFixture, type SearchBody } from '../../../test/support/searchFixture.js';

/** The search index kept in step with messages, and built for guilds whose messages predate it. */
describeDrivers('the message search index on $driver', (driver) => {
  // A server of the file's own: a test makes it listen, and pending backfills are read
  // across all its guilds.
  const fx = useSearchFixture(driver, { own: true });
  const { searchUrl, post, search, ids } = fx;

  it('keeps the index in step with creates, edits and deletes', async () => {
    const created = await fx.g.call('POST', `/channels/${fx.general}/messages`, {
      auth: fx.g.owner.token,
      payload: { content: 'posted through the API' },
    });
    expect(created.statusCode).toBe(200);
    const { id } = created.json<{ id: string }>();
    expect(await ids({ content: 'posted' })).toEqual([id]);

    await fx.server.app.storage.messages.update(fx.general, id, { content: 'edited words now' });
    expect(await ids({ content: 'posted' })).toEqual([]);
    expect(await ids({ content: 'edited' })).toEqual([id]);
    const body = await search({ content: 'edited' });
    expect(body.messages[0]?.[0]?.content).toBe('edited words now');

    await fx.server.app.storage.messages.delete(fx.general, [id]);
    expect(await ids({ content: 'edited' })).toEqual([]);
    expect((await search({ content: 'edited' })).total_results).toBe(0);
  });

  it('answers 202 (110000) while a guild is indexed, then finds it all', async () => {
    for (let i = 0; i < 12; i += 1) await post({ content: `archived note ${i}` });
    // As after migration 0011: the messages predate the guild's index.
    await fx.server.app.storage.messageSearch.reindex(fx.g.guildId, Date.now());

    const first = await fx.g.call('GET', searchUrl({ content: 'archived' }), fx.g.bot.token);
    expect(first.statusCode).toBe(202);
    expectOpenApiResponse(first, 'GET', searchUrl({ content: 'archived' }));
    expect(first.json()).toEqual({
      code: 110000,
      message: 'Index not yet available. Try again later',
      documents_indexed: 0,
      retry_after: 2,
    });

    // The background job finishes; meanwhile the guild answers 202 or, once ready, 200.
    let res = first;
    for (let attempt = 0; attempt < 500 && res.statusCode === 202; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      res = await fx.g.call('GET', searchUrl({ content: 'archived' }), fx.g.bot.token);
    }
    expect(res.statusCode).toBe(200);
    expect(res.json<SearchBody>().total_results).toBe(12);
    expect(await fx.server.app.storage.messageSearch.status(fx.g.guildId)).toEqual({
      ready: true,
      documentsIndexed: 12,
    });
    expect(await fx.server.app.storage.messageSearch.pendingGuildIds()).toEqual([]);
  });

  it('resumes unfinished backfills when the server starts listening', async () => {
    for (let i = 0; i < 3; i += 1) await post({ content: `migrated ${i}` });
    // As after migration 0011: rows waiting for their backfill, and nobody searching yet.
    await fx.server.app.storage.messageSearch.reindex(fx.g.guildId, Date.now());
    await fx.server.app.listen();
    for (let attempt = 0; attempt < 500; attempt += 1) {
      if ((await fx.server.app.storage.messageSearch.status(fx.g.guildId)).ready) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(await fx.server.app.storage.messageSearch.status(fx.g.guildId)).toEqual({
      ready: true,
      documentsIndexed: 3,
    });
    expect(await ids({ content: 'migrated' })).toHaveLength(3);
  });

  it('rebuilds a guild index for an operator (search reindex)', async () => {
    for (let i = 0; i < 3; i += 1) await post({ content: `rebuilt ${i}` });
    await fx.server.app.services.messageSearch.reindex(fx.g.guildId);
    for (let attempt = 0; attempt < 500; attempt += 1) {
      if ((await fx.server.app.storage.messageSearch.status(fx.g.guildId)).ready) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(await ids({ content: 'rebuilt' })).toHaveLength(3);
    expect(await fx.server.app.storage.messageSearch.status(fx.g.guildId)).toEqual({
      ready: true,
      documentsIndexed: 3,
    });
    await expect(fx.server.app.services.messageSearch.reindex('1')).rejects.toMatchObject({
      code: 10004,
    });
  });

  it('back-fills in batches while messages change, indexing each once', async () => {
    const search = fx.server.app.storage.messageSearch;
    const kept = await post({ content: 'alpha one' });
    const edited = await post({ content: 'alpha two' });
    const deleted = await post({ content: 'alpha three' });
    const later = await post({ content: 'alpha four' });
    await search.reindex(fx.g.guildId, Date.now());
    expect(await search.pendingGuildIds()).toEqual([fx.g.guildId]);

    // Changes while the guild waits for its backfill: an edit, a delete and a new message.
    await fx.server.app.storage.messages.update(fx.general, edited, { content: 'beta two' });
    await fx.server.app.storage.messages.delete(fx.general, [deleted]);
    const fresh = await post({ content: 'alpha fresh' });

    expect(await search.backfill(fx.g.guildId, { batchSize: 2, nowMs: 1 })).toEqual({
      indexed: 2,
      done: false,
    });
    expect(await search.status(fx.g.guildId)).toEqual({ ready: false, documentsIndexed: 2 });
    // An edit of an indexed message while the rest waits.
    await fx.server.app.storage.messages.update(fx.general, kept, { content: 'alpha one again' });
    expect(await search.backfill(fx.g.guildId, { batchSize: 2, nowMs: 2 })).toEqual({
      indexed: 1,
      done: true,
    });
    expect(await search.backfill(fx.g.guildId, { batchSize: 2, nowMs: 3 })).toEqual({
      indexed: 0,
      done: true,
    });
    expect(await search.status(fx.g.guildId)).toEqual({ ready: true, documentsIndexed: 3 });

    expect(await ids({ content: 'alpha' })).toEqual([fresh, later, kept]);
    expect(await ids({ content: 'beta' })).toEqual([edited]);
    expect(await ids({ content: 'again' })).toEqual([kept]);
    expect(await ids({ content: 'three' })).toEqual([]);

    // Reindexing a ready guild drops what was indexed and builds it again.
    await search.reindex(fx.g.guildId, Date.now());
    expect(await search.backfill(fx.g.guildId, { batchSize: 10, nowMs: 4 })).toEqual({
      indexed: 4,
      done: true,
    });
    expect(await ids({ content: 'alpha' })).toEqual([fresh, later, kept]);
  });
});
