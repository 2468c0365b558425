// The little of oidc-provider 8's API the test identity provider uses (the package ships no types).
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface Account {
    accountId: string;
    claims(
      use: string,
      scope: string,
      claims: object,
      rejected: string[],
    ): Record<string, unknown> | Promise<Record<string, unknown>>;
  }

  interface GrantContext {
    body: unknown;
    oidc: {
      client: unknown;
      params?: Record<string, unknown>;
      provider: {
        Account: { findAccount(ctx: GrantContext, sub: string): Promise<Account> };
        IdToken: new (
          claims: Record<string, unknown>,
          options: { ctx: GrantContext; client: unknown },
        ) => { scope: string; issue(options: { use: 'idtoken' }): Promise<string> };
      };
    };
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    registerGrantType(
      name: string,
      handler: (ctx: GrantContext) => Promise<void>,
      parameters: string[],
    ): void;
  }
}
