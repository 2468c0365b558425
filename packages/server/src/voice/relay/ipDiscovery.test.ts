import { describe, expect, it } from 'vitest';
import {
  discoveryRequest,
  discoveryRequestSsrc,
  discoveryResponse,
  isDiscoveryRequest,
} from './ipDiscovery.js';

describe('IP discovery packets', () => {
  it('reads the request @discordjs/voice sends and writes the answer it parses', () => {
    const request = discoveryRequest(0xfeedf00d);
    expect(request.length).toBe(74);
    expect(isDiscoveryRequest(request)).toBe(true);
    expect(discoveryRequestSsrc(request)).toBe(0xfeedf00d);
    const answer = discoveryResponse(0xfeedf00d, '203.0.113.250', 50_123);
    expect(answer.length).toBe(74);
    expect(answer.readUInt16BE(0)).toBe(2);
    expect(answer.readUInt16BE(2)).toBe(70);
    expect(answer.readUInt32BE(4)).toBe(0xfeedf00d);
    expect(answer.subarray(8, answer.indexOf(0, 8)).toString()).toBe('203.0.113.250');
    expect(answer.readUInt16BE(72)).toBe(50_123);
  });

  it('tells requests from other datagrams and refuses a wrong length field', () => {
    expect(isDiscoveryRequest(discoveryResponse(1, '127.0.0.1', 1))).toBe(false);
    expect(isDiscoveryRequest(Buffer.alloc(73))).toBe(false);
    const badLength = discoveryRequest(5);
    badLength.writeUInt16BE(71, 2);
    expect(isDiscoveryRequest(badLength)).toBe(true);
    expect(discoveryRequestSsrc(badLength)).toBeNull();
  });

  it('refuses to write an address that does not fit', () => {
    expect(() => discoveryResponse(1, 'x'.repeat(64), 1)).toThrow(TypeError);
    expect(discoveryResponse(1, 'x'.repeat(63), 1).indexOf(0, 8)).toBe(71);
  });
});
