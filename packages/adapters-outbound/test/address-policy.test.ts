import { describe, expect, it } from 'vitest';
import { nonPublicRangeOf } from '../src/index.js';

describe('address policy: only public addresses may be connected to', () => {
  it.each([
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['169.254.169.254', 'linkLocal'], // the cloud metadata service
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.1', 'reserved'], // documentation
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fe80::1%eth0', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'], // IPv4-mapped: judged as the IPv4 address
    ['::ffff:10.1.2.3', 'private'],
    ['64:ff9b::a9fe:a9fe', 'linkLocal'], // NAT64 of 169.254.169.254
    ['::7f00:1', 'ipv4Compatible'],
    ['2002:7f00:1::1', '6to4'],
    ['not-an-address', 'not an IP address'],
  ])('refuses %s (%s)', (address, range) => {
    expect(nonPublicRangeOf(address)).toBe(range);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '2606:4700::1111',
    '2a00:1450:4001:82b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ])('allows %s', (address) => {
    expect(nonPublicRangeOf(address)).toBeNull();
  });
});
