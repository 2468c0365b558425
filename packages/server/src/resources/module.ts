/**
 * @module resources/module: how a resource plugs into the composition root. Each resource folder
 * declares one `ResourceModule` (its `module.ts`): the services it makes, the routes it serves
 * and the operator commands it brings. The root lists the modules once, in order, with
 * `moduleChain().add(…)`; the chain builds every service from that list and registers every
 * route, and the types check the order: a module listed before one whose services it reads does
 * not compile, nor does a root that leaves out what a module or its routes need.
 */
import type { FastifyInstance } from 'fastify';
import type { AdminCommand } from '../adminCommand.js';

/**
 * One resource as the composition root sees it. Its type parameters say what it needs and what
 * it makes, each structurally (a module imports no other module's types to say so):
 * - `Root`: what it reads of the root's service context (the deps, links, settings);
 * - `Made`: the services of modules listed before it that it is built from;
 * - `Later`: the services it reads only at call time, from modules listed after it (a cycle:
 *   threads post their first message through messages, which ask the thread rules);
 * - `Out`: the services it makes, merged into the app's services under these names;
 * - `Api` and `AtRoot`: what its routes under the API prefix, and at the root, are given;
 * - `Commands`: the services its operator commands use.
 */
export interface ResourceModule<Root, Made, Later, Out, Api, AtRoot, Commands> {
  /** The resource's name, which errors about it carry. */
  readonly name: string;
  /** Makes its services; `later()` gives the later modules' services once all are made. */
  readonly services: (root: Root, made: Made, later: () => Later) => Out;
  /** Registers its routes under the API prefix (`/api/v10`). */
  readonly routes?: (api: FastifyInstance, ctx: Api) => void;
  /** Registers its routes at the root: the CDN's image and file paths, health, OAuth2's pages. */
  readonly rootRoutes?: (http: FastifyInstance, ctx: AtRoot) => void | Promise<void>;
  /** The operator commands (`guildhall <group> <action>`) it brings. */
  readonly commands?: readonly AdminCommand<Commands>[];
}

/** Declares a module, its types inferred from the functions' parameter and return types. */
export function resourceModule<Root, Made, Later, Out, Api, AtRoot, Commands>(
  module: ResourceModule<Root, Made, Later, Out, Api, AtRoot, Commands>,
): ResourceModule<Root, Made, Later, Out, Api, AtRoot, Commands> {
  return module;
}

/** Services made from the modules: one function from the root's context to all of them. */
type RunModules<Root, Made, Later> = (root: Root, later: (name: string) => Later) => Made;

/**
 * The ordered list of modules, each added after those it is built from. Each type parameter is
 * the sum of the modules' so far: what they need of the root (`Root`), what they make (`Made`),
 * what they read later (`Later`), what their routes need (`Api`, `AtRoot`) and their commands'.
 */
export interface ModuleChain<Root, Made, Later, Api, AtRoot, Commands> {
  readonly run: RunModules<Root, Made, Later>;
  /** Registers every module's API routes, in the order the modules are listed. */
  readonly registerApi: (api: FastifyInstance, ctx: Api) => void;
  /** Registers every module's root routes, in the order the modules are listed. */
  readonly registerRoot: (http: FastifyInstance, ctx: AtRoot) => Promise<void>;
  /** Every module's operator commands, in the order the modules are listed. */
  readonly commands: readonly AdminCommand<Commands>[];
  /**
   * The list with `module` after the others. It compiles only when the modules before it make
   * every service `module` is built from (its `Made` is a supertype of theirs), and when its
   * services take no name already taken.
   */
  add<R, L, Out, A, C, K>(
    module: ResourceModule<R, Made, L, Out, A, C, K> & Unclaimed<Out, Made>,
  ): ModuleChain<Root & R, Made & Out, Later & L, Api & A, AtRoot & C, Commands & K>;
  /**
   * Makes every module's services from `root`, in order. It compiles only when the modules make
   * every service one of them reads later.
   */
  build<All extends Later>(this: { readonly run: RunModules<Root, All, Later> }, root: Root): All;
}

/**
 * Nothing when the services `Out` take no name of `Made`'s; else a property no module has, named
 * after the names taken twice (so the compiler's refusal names them).
 */
type Unclaimed<Out, Made> = [Extract<keyof Out, keyof Made>] extends [never]
  ? unknown
  : { readonly servicesNamedTwice: Extract<keyof Out, keyof Made> };

/** The app's services as `chain` makes them. */
export type ServicesOf<Chain> = Chain extends { readonly run: (...args: never) => infer Made }
  ? Made
  : never;

interface ChainParts<Api, AtRoot> {
  api: (api: FastifyInstance, ctx: Api) => void;
  root: (http: FastifyInstance, ctx: AtRoot) => Promise<void>;
}

function chain<Root, Made, Later, Api, AtRoot, Commands>(
  run: RunModules<Root, Made, Later>,
  parts: ChainParts<Api, AtRoot>,
  commands: readonly AdminCommand<Commands>[],
): ModuleChain<Root, Made, Later, Api, AtRoot, Commands> {
  return {
    run,
    registerApi: parts.api,
    registerRoot: parts.root,
    commands,
    add<R, L, Out, A, C, K>(
      module: ResourceModule<R, Made, L, Out, A, C, K> & Unclaimed<Out, Made>,
    ) {
      const { services, routes, rootRoutes } = module;
      const all: readonly AdminCommand<Commands & K>[] = [...commands, ...(module.commands ?? [])];
      return chain<Root & R, Made & Out, Later & L, Api & A, AtRoot & C, Commands & K>(
        (root, later) => {
          const made = run(root, later);
          return { ...made, ...services(root, made, () => later(module.name)) };
        },
        {
          api: (api, ctx) => {
            parts.api(api, ctx);
            routes?.(api, ctx);
          },
          root: async (http, ctx) => {
            await parts.root(http, ctx);
            await rootRoutes?.(http, ctx);
          },
        },
        all,
      );
    },
    build<All extends Later>(
      this: { readonly run: RunModules<Root, All, Later> },
      root: Root,
    ): All {
      let all: All | null = null;
      // A later service is read at call time, never while the services are being made.
      const later = (name: string): Later => {
        if (all === null) throw new Error(`${name} read a later service before all were made`);
        return all;
      };
      const made = this.run(root, later);
      all = made;
      return made;
    },
  };
}

/** The empty list, which the composition root adds its modules to. */
export function moduleChain(): ModuleChain<unknown, object, unknown, unknown, unknown, unknown> {
  return chain<unknown, object, unknown, unknown, unknown, unknown>(
    () => ({}),
    { api: () => undefined, root: () => Promise.resolve() },
    [],
  );
}
