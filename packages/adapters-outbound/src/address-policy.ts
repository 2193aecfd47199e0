import ipaddr from 'ipaddr.js';

/** The name of the non-public range an address lies in (`loopback`, `private`, ...), or null for a public address. */
export type AddressPolicy = (address: string) => string | null;

/**
 * The service's rule: only global unicast addresses, as ipaddr.js classifies them (its range tables follow the IANA
 * special-purpose registries). IPv4 embedded in IPv6 (mapped, NAT64) is judged as the IPv4 address it stands for.
 */
export const nonPublicRangeOf: AddressPolicy = (address) => {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return rangeVerdict(parsed.range());

  const ipv6 = parsed as ipaddr.IPv6;
  const range = ipv6.range();
  if (range === 'ipv4Mapped' || range === 'rfc6052') return nonPublicRangeOf(embeddedIpv4(ipv6));
  // ::a.b.c.d (IPv4-compatible, deprecated by RFC 4291) is no range of ipaddr.js; no public host uses it.
  if (range === 'unicast' && ipv6.parts.slice(0, 6).every((part) => part === 0)) return 'ipv4Compatible';
  return rangeVerdict(range);
};

const rangeVerdict = (range: string): string | null => (range === 'unicast' ? null : range);

const embeddedIpv4 = (ipv6: ipaddr.IPv6): string => {
  const [high = 0, low = 0] = ipv6.parts.slice(6);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
};
