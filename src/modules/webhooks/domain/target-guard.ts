import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Refuses webhook targets on loopback, private, link-local and other non-public addresses (SSRF),
 * unless allowed (development and tests). Checked when a webhook is saved and again before every
 * attempt, after DNS resolution; the attempt then connects to the address that was checked, so a
 * name that re-resolves elsewhere (DNS rebinding) cannot slip through.
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
/**
 * IPv6: only global unicast (2000::/3) is public, less the special-purpose blocks inside it
 * (IANA's registry: protocol assignments incl. Teredo, documentation, ORCHID). Forms that carry an
 * IPv4 address (mapped, compatible, NAT64, 6to4) are judged by that address: `::ffff:127.0.0.1`,
 * `64:ff9b::a00:1` and `2002:c0a8:101::` all reach a private or loopback host.
 */
const blocked6 = new BlockList();
for (const [net, prefix] of [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['3fff::', 20],
] as const) {
  blocked6.addSubnet(net, prefix, 'ipv6');
}

export class TargetRefused extends Error {}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !blocked.check(address, 'ipv4');
  if (family !== 6) return false;
  const bytes = ipv6Bytes(address);
  const embedded = embeddedIpv4(bytes);
  if (embedded !== undefined) return embedded !== null && isPublicAddress(embedded);
  if ((bytes[0] & 0xe0) !== 0x20) return false;
  return !blocked6.check(address.split('%')[0], 'ipv6');
}

/**
 * The IPv4 address an IPv6 form carries; undefined when it carries none, null when it carries
 * one that cannot be judged (local-use NAT64).
 */
function embeddedIpv4(b: number[]): string | null | undefined {
  const v4 = (at: number) => b.slice(at, at + 4).join('.');
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible, and :: and ::1), ::ffff:0:a.b.c.d (SIIT).
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return v4(12);
  if (zero(0, 12)) return v4(12);
  if (zero(0, 8) && b[8] === 0xff && b[9] === 0xff && zero(10, 12)) return v4(12);
  // 64:ff9b::/96 (NAT64, well-known prefix); 64:ff9b:1::/48 (local-use NAT64) is refused.
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b) {
    if (zero(4, 12)) return v4(12);
    return null;
  }
  // 2002::/16 (6to4): the IPv4 address in bits 16..47.
  if (b[0] === 0x20 && b[1] === 0x02) return v4(2);
  return undefined;
}

/** The 16 bytes of a valid IPv6 address (checked by isIP), dotted IPv4 tail and zone id included. */
function ipv6Bytes(address: string): number[] {
  let text = address.split('%')[0];
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const gap = text.indexOf('::');
  const part = (t: string) => (t === '' ? [] : t.split(':'));
  const groups =
    gap === -1
      ? part(text)
      : (() => {
          const head = part(text.slice(0, gap));
          const tail = part(text.slice(gap + 2));
          return [...head, ...Array<string>(8 - head.length - tail.length).fill('0'), ...tail];
        })();
  return groups.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 0xff];
  });
}

interface ResolvedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** The ports a webhook reaches without `allow_nonstandard_port` ('' is the scheme's default). */
const STANDARD_PORTS = new Set(['', '80', '443']);

const NONSTANDARD_PORT_MESSAGE = 'Ports other than 443 and 80 need allow_nonstandard_port: true.';

/**
 * Parses and resolves a webhook URL; throws TargetRefused with a message for the user.
 * docs/api.md, Webhooks: a public address is reached on 443 or 80 only, unless the webhook says
 * `allow_nonstandard_port`; a non-public one (allowed by WEBHOOK_ALLOW_PRIVATE, the operator's own
 * network) on any port.
 */
export async function resolveTarget(
  rawUrl: string,
  allowPrivate: boolean,
  allowNonstandardPort: boolean,
): Promise<ResolvedTarget> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new TargetRefused('Enter a valid URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TargetRefused('Only http and https URLs are allowed.');
  if (url.username || url.password)
    throw new TargetRefused('Credentials in the URL are not allowed.');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      throw new TargetRefused(`The host ${host} could not be resolved.`);
    }
  }
  if (addresses.length === 0) throw new TargetRefused(`The host ${host} could not be resolved.`);
  if (!allowPrivate) {
    const bad = addresses.find((a) => !isPublicAddress(a.address));
    if (bad) throw new TargetRefused('Private, loopback and link-local addresses are not allowed.');
  }
  if (
    !allowNonstandardPort &&
    !STANDARD_PORTS.has(url.port) &&
    addresses.some((a) => isPublicAddress(a.address))
  )
    throw new TargetRefused(NONSTANDARD_PORT_MESSAGE);
  return { url, address: addresses[0].address, family: addresses[0].family === 6 ? 6 : 4 };
}
