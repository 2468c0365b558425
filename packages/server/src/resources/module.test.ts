import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { AdminCommand } from '../adminCommand.js';
import { moduleChain, resourceModule, type ServicesOf } from './module.js';

// Three modules in the shape of threads and messages: `posts` reads `notes` later (a cycle),
// `notes` is built from `posts`, and `feed` serves both.
const posts = resourceModule({
  name: 'posts',
  services: (
    root: { prefix: string },
    _made: unknown,
    later: () => { notes: { count(): number } },
  ) => ({
    posts: { title: (n: number) => `${root.prefix}${n}`, noted: () => later().notes.count() },
  }),
  routes: (api, ctx: { services: { posts: { title(n: number): string } } }) => {
    api.get('/posts', () => ({ title: ctx.services.posts.title(1) }));
  },
});

const notes = resourceModule({
  name: 'notes',
  services: (_root: unknown, made: { posts: { title(n: number): string } }) => ({
    notes: { count: () => 2, first: () => made.posts.title(0) },
  }),
  rootRoutes: (http, ctx: { cdnHost: string }) => {
    http.get('/notes.png', () => ({ host: ctx.cdnHost }));
  },
});

const command = (name: string): AdminCommand<{ posts: { title(n: number): string } }> => ({
  name,
  usage: name,
  summary: name,
  run: (app) => Promise.resolve(app.services.posts.title(3)),
});

const feed = resourceModule({
  name: 'feed',
  services: () => ({}),
  routes: (api, ctx: { services: { notes: { first(): string } } }) => {
    api.get('/feed', () => ({ first: ctx.services.notes.first() }));
  },
  commands: [command('feed show')],
});

describe('moduleChain', () => {
  it('builds each module from those before it and reads later ones at call time', () => {
    const chain = moduleChain().add(posts).add(notes).add(feed);
    const services: ServicesOf<typeof chain> = chain.build({ prefix: 'post ' });
    expect(services.notes.first()).toBe('post 0');
    expect(services.posts.noted()).toBe(2);
    expect(Object.keys(services)).toEqual(['posts', 'notes']);
  });

  it('refuses a later service read while the services are being made', () => {
    const eager = resourceModule({
      name: 'eager',
      services: (_root: unknown, _made: unknown, later: () => { notes: unknown }) => ({
        eager: later().notes,
      }),
    });
    const chain = moduleChain().add(eager).add(posts).add(notes);
    expect(() => chain.build({ prefix: '' })).toThrow(
      'eager read a later service before all were made',
    );
  });

  it("registers the modules' routes where they go, and lists their commands", async () => {
    const chain = moduleChain().add(posts).add(notes).add(feed);
    const services = chain.build({ prefix: 'p' });
    const http = Fastify();
    const ctx = { services, cdnHost: 'cdn' };
    await chain.registerRoot(http, ctx);
    await http.register(
      (api, _opts, done) => {
        chain.registerApi(api, ctx);
        done();
      },
      { prefix: '/api' },
    );
    expect((await http.inject('/api/posts')).json()).toEqual({ title: 'p1' });
    expect((await http.inject('/api/feed')).json()).toEqual({ first: 'p0' });
    expect((await http.inject('/notes.png')).json()).toEqual({ host: 'cdn' });
    expect((await http.inject('/posts')).statusCode).toBe(404);
    expect(chain.commands.map((c) => c.name)).toEqual(['feed show']);
    await http.close();
  });

  it('does not compile a list out of order, a name taken twice, or a later read unmade', async () => {
    // notes is built from posts: listed first, it does not compile.
    // @ts-expect-error -- Property 'posts' is missing
    moduleChain().add(notes);
    // @ts-expect-error -- servicesNamedTwice: "posts"
    moduleChain().add(posts).add(posts);
    // posts reads notes later: a list without notes does not build.
    // @ts-expect-error -- the 'this' context is not assignable (notes is missing)
    moduleChain().add(posts).build({ prefix: '' });
    // The root's context must hold what the modules read of it.
    // @ts-expect-error -- Property 'prefix' is missing
    moduleChain().add(posts).add(notes).build({});
    // And the routes' context what their routes read.
    const chain = moduleChain().add(posts).add(notes);
    const http = Fastify();
    // @ts-expect-error -- the context has no cdnHost
    await chain.registerRoot(http, { services: chain.build({ prefix: '' }) });
    await http.close();
  });
});
