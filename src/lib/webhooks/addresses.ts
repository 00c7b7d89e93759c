// Owns which addresses a webhook may be sent to (docs/decisions/0046): a webhook is a request
// the server makes to a URL an Administrator typed, so without these rules it would reach what
// only the server can reach (its own admin ports, the database, a cloud's metadata service at
// 169.254.169.254). Refused unless WEBHOOKS_ALLOW_PRIVATE: loopback, private, link-local,
// shared (CGNAT), unspecified, multicast, reserved and documentation ranges, in IPv4 and IPv6,
// and IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4) by the address
// they carry. The deliverer checks the address a name resolves to at each send (a name that
// resolved to a public address at registration may resolve to 127.0.0.1 later) and connects to
// that very address. Pure: no imports but node:net.
import { isIPv4, isIPv6 } from 'node:net';

type Range = readonly [base: number, bits: number];

/** IPv4 ranges that are not the public internet (RFC 6890 and its updates). */
const PRIVATE_V4: readonly Range[] = [
  [0x00000000, 8], // 0.0.0.0/8 "this network" (0.0.0.0 reaches the host itself)
  [0x0a000000, 8], // 10/8
  [0x64400000, 10], // 100.64/10 shared address space (CGNAT)
  [0x7f000000, 8], // 127/8 loopback
  [0xa9fe0000, 16], // 169.254/16 link-local, cloud metadata
  [0xac100000, 12], // 172.16/12
  [0xc0000000, 24], // 192.0.0/24 protocol assignments
  [0xc0000200, 24], // 192.0.2/24 documentation
  [0xc0586300, 24], // 192.88.99/24 6to4 relay
  [0xc0a80000, 16], // 192.168/16
  [0xc6120000, 15], // 198.18/15 benchmarking
  [0xc6336400, 24], // 198.51.100/24 documentation
  [0xcb007100, 24], // 203.0.113/24 documentation
  [0xe0000000, 4], // 224/4 multicast
  [0xf0000000, 4], // 240/4 reserved, and 255.255.255.255
];

function v4Number(address: string): number {
  return address.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
}

function inRange(value: number, [base, bits]: Range): boolean {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return (value & mask) >>> 0 === base;
}

function isPublicV4(address: string): boolean {
  const value = v4Number(address);
  return !PRIVATE_V4.some((range) => inRange(value, range));
}

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail and `::` expanded). */
function v6Groups(address: string): number[] {
  let text = address.toLowerCase();
  // A zone (fe80::1%eth0) names an interface: link-local either way.
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail?.[1]) {
    const value = v4Number(tail[1]);
    text = `${text.slice(0, -tail[1].length)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = rest === undefined || rest === '' ? [] : rest.split(':');
  const missing = 8 - left.length - right.length;
  const groups = [...left, ...Array(rest === undefined ? 0 : missing).fill('0'), ...right];
  return groups.map((group) => Number.parseInt(group, 16));
}

function v4Of(high: number, low: number): string {
  return [high >>> 8, high & 0xff, low >>> 8, low & 0xff].join('.');
}

function isPublicV6(address: string): boolean {
  const g = v6Groups(address);
  if (g.length !== 8 || g.some((group) => !Number.isInteger(group))) return false;
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const firstFive = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  // ::ffff:a.b.c.d (mapped): what it carries decides; ::a.b.c.d (compatible, deprecated) and
  // :: / ::1 are refused with it (:: is 0.0.0.0 carried, ::1 is 0.0.0.1).
  if (firstFive && g5 === 0xffff) return isPublicV4(v4Of(g6, g7));
  if (firstFive && g5 === 0) return false;
  // 64:ff9b::/96 NAT64 and 2002::/16 6to4 carry an IPv4 address a gateway would reach.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0)
    return isPublicV4(v4Of(g6, g7));
  if (g0 === 0x2002) return isPublicV4(v4Of(g1, g2));
  if ((g0 & 0xfe00) === 0xfc00) return false; // fc00::/7 unique local
  if ((g0 & 0xffc0) === 0xfe80) return false; // fe80::/10 link-local
  if ((g0 & 0xffc0) === 0xfec0) return false; // fec0::/10 site-local (deprecated)
  if ((g0 & 0xff00) === 0xff00) return false; // ff00::/8 multicast
  if (g0 === 0x2001 && g1 === 0x0db8) return false; // 2001:db8::/32 documentation
  if (g0 === 0x0100 && g1 === 0 && g2 === 0 && g3 === 0) return false; // 100::/64 discard
  // Everything else outside 2000::/3 is unassigned or special.
  return (g0 & 0xe000) === 0x2000;
}

/** Whether `address` (an IP literal, brackets allowed) is on the public internet. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  if (isIPv4(bare)) return isPublicV4(bare);
  if (isIPv6(bare)) return isPublicV6(bare);
  return false;
}

/** An IP literal (brackets allowed), as opposed to a name to resolve. */
export function isAddressLiteral(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  return isIPv4(bare) || isIPv6(bare);
}
