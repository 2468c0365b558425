/**
 * IP discovery on the media port (@discordjs/voice VoiceUDPSocket.ts `performIPDiscovery`): a
 * client sends 74 bytes — type 1 (u16 BE), length 70 (u16 BE), its ssrc (u32 BE), 66 zero bytes —
 * and the relay answers 74 bytes of type 2 with the address it saw, NUL-terminated from offset 8,
 * and the port in the last two bytes (big-endian).
 *
 * @module
 */
import {
  IP_DISCOVERY_LENGTH,
  IP_DISCOVERY_REQUEST,
  IP_DISCOVERY_RESPONSE,
} from '@guildhall/protocol';

/** The length field: the bytes after the type and the length fields. */
const DISCOVERY_BODY_BYTES = IP_DISCOVERY_LENGTH - 4;
const ADDRESS_OFFSET = 8;
/** Room for the address and its NUL before the port. */
const MAX_ADDRESS_BYTES = IP_DISCOVERY_LENGTH - 2 - ADDRESS_OFFSET - 1;

/** Whether a datagram is shaped like a discovery request (length and type). */
export function isDiscoveryRequest(packet: Uint8Array): boolean {
  return (
    packet.length === IP_DISCOVERY_LENGTH &&
    packet[0] === IP_DISCOVERY_REQUEST >> 8 &&
    packet[1] === (IP_DISCOVERY_REQUEST & 0xff)
  );
}

/** The ssrc a discovery request names, or null when its length field is not 70. */
export function discoveryRequestSsrc(packet: Buffer): number | null {
  if (packet.readUInt16BE(2) !== DISCOVERY_BODY_BYTES) return null;
  return packet.readUInt32BE(4);
}

/** A discovery request as @discordjs/voice sends it (tests and the bench use it). */
export function discoveryRequest(ssrc: number): Buffer {
  const packet = Buffer.alloc(IP_DISCOVERY_LENGTH);
  packet.writeUInt16BE(IP_DISCOVERY_REQUEST, 0);
  packet.writeUInt16BE(DISCOVERY_BODY_BYTES, 2);
  packet.writeUInt32BE(ssrc, 4);
  return packet;
}

/** The answer to a discovery request: the address and port the relay saw it come from. */
export function discoveryResponse(ssrc: number, address: string, port: number): Buffer {
  const packet = Buffer.alloc(IP_DISCOVERY_LENGTH);
  packet.writeUInt16BE(IP_DISCOVERY_RESPONSE, 0);
  packet.writeUInt16BE(DISCOVERY_BODY_BYTES, 2);
  packet.writeUInt32BE(ssrc, 4);
  if (Buffer.byteLength(address, 'utf8') > MAX_ADDRESS_BYTES) {
    throw new TypeError(`An address of at most ${MAX_ADDRESS_BYTES} bytes fits; got "${address}".`);
  }
  packet.write(address, ADDRESS_OFFSET, 'utf8');
  packet.writeUInt16BE(port, IP_DISCOVERY_LENGTH - 2);
  return packet;
}
