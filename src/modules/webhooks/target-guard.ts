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
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['64:ff9b::', 96],
  ['100::', 64],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

export class TargetRefused extends Error {}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return isPublicAddress(mapped[1]);
    return !blocked.check(address, 'ipv6');
  }
  return !blocked.check(address, 'ipv4');
}

export interface ResolvedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** Parses and resolves a webhook URL; throws TargetRefused with a message for the user. */
export async function resolveTarget(
  rawUrl: string,
  allowPrivate: boolean,
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
  return { url, address: addresses[0].address, family: addresses[0].family === 6 ? 6 : 4 };
}
