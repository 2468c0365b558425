import { expect, it } from 'vitest';
import { ClientStatus, LoggingSeverity } from '../src/node.js';
import { describeDrivers, eventually, useSdkWorld } from './support.js';

describeDrivers('SDK connection ($driver)', (driver) => {
  const world = useSdkWorld(driver);

  it('goes Connecting → Connected → Ready with a provisional token', async () => {
    const ada = await world().player('Ada');
    const client = await world().client(ada);
    const lines: string[] = [];
    client.addLogCallback((line) => lines.push(line), LoggingSeverity.Verbose);
    const seen: ClientStatus[] = [];
    client.setStatusChangedCallback((status) => seen.push(status));
    expect(client.getStatus()).toBe(ClientStatus.Disconnected);
    client.connect();
    await eventually(() => (client.getStatus() === ClientStatus.Ready ? true : undefined), 'Ready');
    expect(seen).toEqual([ClientStatus.Connecting, ClientStatus.Connected, ClientStatus.Ready]);
    expect(client.getApplicationId()).toBe(world().dev.applicationId);
    expect(lines.some((line) => line.includes('Status: Ready'))).toBe(true);
    expect(lines.join('\n')).not.toContain(ada.token);
  });

  it('ends Disconnected, with what to do, when connect() has no token', async () => {
    const client = await world().client();
    const lines: string[] = [];
    client.addLogCallback((line) => lines.push(line), LoggingSeverity.Error);
    client.connect();
    expect(client.getStatus()).toBe(ClientStatus.Disconnected);
    expect(lines).toContain('connect() needs a token: call updateToken() first.');
  });
});
