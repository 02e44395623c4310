import { isIPv4, isIPv6 } from 'node:net';

type Range = readonly [prefix: bigint, bits: number, name: string];

const v4 = (text: string, bits: number, name: string): Range => [BigInt(parseIPv4(text)), bits, name];

/** IPv4 ranges that are not the public internet (IANA special-purpose registry), checked in order. */
const IPV4_RANGES: readonly Range[] = [
  v4('0.0.0.0', 8, 'an unspecified ("this network") address'),
  v4('10.0.0.0', 8, 'a private address (RFC 1918)'),
  v4('100.64.0.0', 10, 'a carrier-grade NAT address (100.64.0.0/10)'),
  v4('127.0.0.0', 8, 'a loopback address'),
  v4('169.254.0.0', 16, 'a link-local address'),
  v4('172.16.0.0', 12, 'a private address (RFC 1918)'),
  v4('192.0.0.0', 24, 'a reserved address (192.0.0.0/24)'),
  v4('192.0.2.0', 24, 'a documentation address'),
  v4('192.88.99.0', 24, 'a reserved address (6to4 relay)'),
  v4('192.168.0.0', 16, 'a private address (RFC 1918)'),
  v4('198.18.0.0', 15, 'a benchmarking address'),
  v4('198.51.100.0', 24, 'a documentation address'),
  v4('203.0.113.0', 24, 'a documentation address'),
  v4('224.0.0.0', 4, 'a multicast address'),
  v4('240.0.0.0', 4, 'a reserved or broadcast address'),
];

/** Checked after the forms that embed an IPv4 address. Anything outside 2000::/3 is refused anyway. */
const IPV6_RANGES: readonly Range[] = [
  [0x2001_0db8n << 96n, 32, 'a documentation address'],
  [0x2001n << 112n, 23, 'a reserved address (2001::/23)'],
  [0x3fffn << 112n, 20, 'a documentation address'],
];

/**
 * Why an IP address is not a public internet address ("a loopback address", "a private
 * address (RFC 1918)" ...), or `undefined` when it is one. Takes IPv4 and IPv6 text as
 * `dns.lookup` or the URL parser give it (an IPv6 zone `%eth0` is ignored). IPv6 is public
 * only inside global unicast 2000::/3; the forms that carry an IPv4 address (IPv4-mapped
 * ::ffff:0:0/96, NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by that address. Text that
 * is not an IP address is refused too.
 */
export function nonPublicAddressReason(address: string): string | undefined {
  if (isIPv4(address)) return ipv4Reason(parseIPv4(address));
  const bare = address.replace(/%.*$/, '');
  if (!isIPv6(bare)) return 'not an IP address';
  const value = parseIPv6(bare);
  if (value === 0n) return 'an unspecified address (::)';
  if (value === 1n) return 'a loopback address (::1)';
  if (value >> 32n === 0xffffn) return embedded(ipv4Reason(Number(value & 0xffff_ffffn)), 'IPv4-mapped');
  if (value >> 32n === 0x64_ff9bn << 64n) return embedded(ipv4Reason(Number(value & 0xffff_ffffn)), 'NAT64');
  if (value >> 112n === 0x2002n) return embedded(ipv4Reason(Number((value >> 80n) & 0xffff_ffffn)), '6to4');
  if (value >> 121n === 0x7en) return 'a unique local address (fc00::/7)';
  if (value >> 118n === 0x3fan) return 'a link-local address (fe80::/10)';
  if (value >> 120n === 0xffn) return 'a multicast address';
  if (value >> 125n !== 1n) return 'a reserved IPv6 address (outside global unicast 2000::/3)';
  return match(value, 128, IPV6_RANGES);
}

/** True for an IP address of the public internet; see `nonPublicAddressReason`. */
export function isPublicAddress(address: string): boolean {
  return nonPublicAddressReason(address) === undefined;
}

function ipv4Reason(value: number): string | undefined {
  return match(BigInt(value), 32, IPV4_RANGES);
}

function embedded(reason: string | undefined, form: string): string | undefined {
  return reason === undefined ? undefined : `${reason}, in ${form} IPv6 form`;
}

function match(value: bigint, width: number, ranges: readonly Range[]): string | undefined {
  for (const [prefix, bits, name] of ranges) {
    const shift = BigInt(width - bits);
    if (value >> shift === prefix >> shift) return name;
  }
  return undefined;
}

/** Dotted-quad text (already validated) as a 32-bit number. */
function parseIPv4(text: string): number {
  return text.split('.').reduce((value, part) => value * 256 + Number(part), 0);
}

/** IPv6 text (already validated, no zone) as a 128-bit number; a trailing dotted quad is allowed. */
function parseIPv6(text: string): bigint {
  let groups = text;
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (quad !== undefined) {
    const value = parseIPv4(quad);
    groups = `${text.slice(0, -quad.length)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const [head = '', tail] = groups.split('::');
  const words = (part: string): string[] => (part === '' ? [] : part.split(':'));
  const left = words(head);
  const right = tail === undefined ? [] : words(tail);
  const all = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return all.reduce((value, word) => (value << 16n) | BigInt(Number.parseInt(word, 16)), 0n);
}
