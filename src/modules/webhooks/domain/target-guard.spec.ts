import { promises as dns } from 'node:dns';
import { isPublicAddress, resolveTarget, TargetRefused } from './target-guard';

describe('webhook target guard', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '0.0.0.0',
    '100.64.0.1',
    '::1',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '224.0.0.1',
    // IPv6 forms that embed a private or loopback IPv4 address.
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::127.0.0.1',
    '::7f00:1',
    '::ffff:0:127.0.0.1',
    '64:ff9b::127.0.0.1',
    '64:ff9b::a00:1',
    '64:ff9b::c0a8:101',
    '64:ff9b:1::808:808',
    '2002:7f00:1::',
    '2002:c0a8:101::1',
    '2002:a9fe:a9fe::',
    // Not global unicast, or special-purpose inside it.
    '::',
    'ff02::1',
    'fe80::1%eth0',
    '2001:db8::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '3fff::1',
    '100::1',
  ])('treats %s as non-public', (address) => expect(isPublicAddress(address)).toBe(false));

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.4.4',
    '::ffff:808:404',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '2a00:1450:4001:80b::200e',
  ])('treats %s as public', (address) => expect(isPublicAddress(address)).toBe(true));

  it('refuses loopback and private targets unless allowed', async () => {
    await expect(resolveTarget('http://127.0.0.1/', false, false)).rejects.toThrow(TargetRefused);
    // A name is refused by what it resolves to: the resolver answers here as it does for localhost,
    // without a query (the spec is of the unmarked tier: no I/O).
    const lookup = jest
      .spyOn(dns, 'lookup')
      .mockResolvedValue([{ address: '127.0.0.1', family: 4 }] as never);
    await expect(resolveTarget('http://localhost:8080/hook', false, false)).rejects.toThrow(
      'Private, loopback',
    );
    expect(lookup).toHaveBeenCalledWith('localhost', { all: true, verbatim: true });
    lookup.mockRestore();
    await expect(resolveTarget('http://[::1]:80/', false, false)).rejects.toThrow(TargetRefused);
    // The URL parser rewrites [::ffff:127.0.0.1] as [::ffff:7f00:1]: still loopback.
    await expect(resolveTarget('http://[::ffff:127.0.0.1]/', false, false)).rejects.toThrow(
      TargetRefused,
    );
    await expect(resolveTarget('http://[2002:7f00:1::]/', false, false)).rejects.toThrow(
      TargetRefused,
    );
    await expect(resolveTarget('http://127.0.0.1:9/', true, false)).resolves.toMatchObject({
      address: '127.0.0.1',
      family: 4,
    });
  });

  it('refuses a public address on a port other than 443 and 80 unless the webhook allows it', async () => {
    for (const url of [
      'https://8.8.8.8:8443/hook',
      'http://8.8.8.8:25/',
      'https://[2a00:1450::1]:22/',
    ]) {
      for (const allowPrivate of [false, true]) {
        await expect(resolveTarget(url, allowPrivate, false)).rejects.toThrow(
          'Ports other than 443 and 80 need allow_nonstandard_port',
        );
        await expect(resolveTarget(url, allowPrivate, true)).resolves.toMatchObject({
          url: new URL(url),
        });
      }
    }
    for (const url of [
      'https://8.8.8.8/',
      'http://8.8.8.8/',
      'https://8.8.8.8:80/',
      'http://8.8.8.8:443/',
    ]) {
      await expect(resolveTarget(url, false, false)).resolves.toMatchObject({ address: '8.8.8.8' });
    }
    // A private address WEBHOOK_ALLOW_PRIVATE allows is the operator's network: any port.
    await expect(resolveTarget('http://127.0.0.1:9/', true, false)).resolves.toMatchObject({
      address: '127.0.0.1',
    });
  });

  it('refuses other schemes, credentials and garbage', async () => {
    await expect(resolveTarget('ftp://8.8.8.8/', true, false)).rejects.toThrow(
      'Only http and https',
    );
    await expect(resolveTarget('file:///etc/passwd', true, false)).rejects.toThrow(
      'Only http and https',
    );
    await expect(resolveTarget('http://user:pw@8.8.8.8/', true, false)).rejects.toThrow(
      'Credentials',
    );
    await expect(resolveTarget('not a url', true, false)).rejects.toThrow('valid URL');
  });
});
