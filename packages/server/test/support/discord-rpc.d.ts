// The little of discord-rpc 4's API the RPC tests use (the package ships no types).
declare module 'discord-rpc' {
  import { EventEmitter } from 'node:events';

  interface LoginOptions {
    clientId: string;
    accessToken?: string;
    scopes?: string[];
    clientSecret?: string;
  }

  interface Presence {
    state?: string;
    details?: string;
    startTimestamp?: number | Date;
    largeImageKey?: string;
    partyId?: string;
    partySize?: number;
    partyMax?: number;
    matchSecret?: string;
    joinSecret?: string;
    spectateSecret?: string;
    instance?: boolean;
  }

  class Client extends EventEmitter {
    constructor(options: { transport: 'ipc' | 'websocket' });
    user: Record<string, unknown> | null;
    application: Record<string, unknown> | null;
    login(options: LoginOptions): Promise<Client>;
    request(cmd: string, args?: Record<string, unknown>, evt?: string): Promise<unknown>;
    getGuilds(timeout?: number): Promise<unknown>;
    getGuild(id: string, timeout?: number): Promise<unknown>;
    setActivity(activity?: Presence, pid?: number): Promise<unknown>;
    clearActivity(pid?: number): Promise<unknown>;
    destroy(): Promise<void>;
  }

  const DiscordRpc: { Client: typeof Client };
  export default DiscordRpc;
  export { Client };
}
