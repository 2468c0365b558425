/**
 * `LobbyHandle.getCallInfoHandle()` against a real Guildhall: a lobby member who is not in the
 * call sees who is, with their voice states, from the lobby's voice states alone.
 */
import { expect, it } from 'vitest';
import { CallStatus } from '../src/node.js';
import { describeDrivers, eventually, useSdkWorld } from './support.js';

const until = (check: () => boolean, what: string) =>
  eventually(() => (check() ? true : undefined), what, 10_000);

describeDrivers('SDK lobby call info ($driver)', (driver) => {
  const world = useSdkWorld(driver);

  it("a member outside the call reads its participants and voice states, null once it's over", async () => {
    const [ada, cy] = await Promise.all([world().player('Ada'), world().player('Cy')]);
    const adas = await world().readyClient(ada);
    const cys = await world().readyClient(cy);
    const lobbyId = await adas.createOrJoinLobby('call-info-room');
    expect(await cys.createOrJoinLobby('call-info-room')).toBe(lobbyId);
    expect(cys.getLobbyHandle(lobbyId)?.getCallInfoHandle()).toBeNull();

    const call = await adas.startCall(lobbyId);
    const statuses: CallStatus[] = [];
    call.setStatusChangedCallback((status) => statuses.push(status));
    await until(() => statuses.includes(CallStatus.Connected), 'Ada connected');
    await until(
      () => cys.getLobbyHandle(lobbyId)?.getCallInfoHandle() != null,
      "Cy sees Ada's call",
    );
    const info = cys.getLobbyHandle(lobbyId)?.getCallInfoHandle();
    expect(info?.channelId()).toBe(lobbyId);
    expect(info?.guildId()).toBeNull();
    expect(info?.getParticipants()).toEqual([ada.id]);
    expect(info?.getVoiceStateHandle(ada.id)?.selfMute()).toBe(false);
    expect(info?.getVoiceStateHandle(cy.id)).toBeNull();

    await call.setSelfMute(true);
    await until(
      () =>
        cys
          .getLobbyHandle(lobbyId)
          ?.getCallInfoHandle()
          ?.getVoiceStateHandle(ada.id)
          ?.selfMute() === true,
      "Cy sees Ada's mute",
    );
    await adas.endCall(lobbyId);
    await until(
      () => cys.getLobbyHandle(lobbyId)?.getCallInfoHandle() === null,
      'Cy sees the call end',
    );
  });
});
