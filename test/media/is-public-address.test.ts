import { describe, expect, it } from 'vitest';
import { isPublicAddress, nonPublicAddressReason } from '../../src/media/is-public-address.js';

// Issue 13 item 7: inbound media cannot reach private places.

describe(nonPublicAddressReason, () => {
  it.each([
    ['127.0.0.1', /loopback/],
    ['127.255.255.254', /loopback/],
    ['0.0.0.0', /unspecified/],
    ['10.0.0.1', /RFC 1918/],
    ['172.16.0.1', /RFC 1918/],
    ['172.31.255.255', /RFC 1918/],
    ['192.168.1.10', /RFC 1918/],
    ['100.64.0.1', /carrier-grade NAT/],
    ['100.127.255.255', /carrier-grade NAT/],
    ['169.254.169.254', /link-local/],
    ['192.0.2.1', /documentation/],
    ['198.18.0.1', /benchmarking/],
    ['224.0.0.1', /multicast/],
    ['239.255.255.250', /multicast/],
    ['240.0.0.1', /reserved/],
    ['255.255.255.255', /broadcast/],
    ['::1', /loopback/],
    ['::', /unspecified/],
    ['fc00::1', /unique local/],
    ['fd12:3456::1', /unique local/],
    ['fe80::1', /link-local/],
    ['fe80::1%eth0', /link-local/],
    ['ff02::1', /multicast/],
    ['::ffff:127.0.0.1', /loopback.*, in IPv4-mapped/],
    ['::ffff:7f00:1', /loopback.*, in IPv4-mapped/],
    ['::ffff:a9fe:a9fe', /link-local.*, in IPv4-mapped/],
    ['::ffff:10.0.0.1', /RFC 1918.*, in IPv4-mapped/],
    ['64:ff9b::7f00:1', /loopback.*, in NAT64/],
    ['2002:c0a8:0101::1', /RFC 1918.*, in 6to4/],
    ['::127.0.0.1', /reserved IPv6/],
    ['64:ff9b:1::1', /reserved IPv6/],
    ['2001:db8::1', /documentation/],
    ['localhost', /not an IP address/],
  ])('refuses %s', (address, reason) => {
    expect(nonPublicAddressReason(address)).toMatch(reason);
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '172.32.0.1', '100.128.0.1', '169.253.0.1', '223.255.255.255', '2606:4700:4700::1111', '2408:8000::1', '::ffff:8.8.8.8', '2002:808:808::1'])(
    'allows the public address %s',
    (address) => {
      expect(nonPublicAddressReason(address)).toBeUndefined();
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});
