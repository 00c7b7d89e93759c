import { describe, expect, test } from 'bun:test';
import { isAddressLiteral, isPublicAddress } from './addresses';
import { addressToSend } from './send';

describe('which addresses a webhook may go to', () => {
  test.each([
    '127.0.0.1',
    '127.255.255.254',
    '0.0.0.0',
    '0.1.2.3',
    '10.0.0.1',
    '100.64.0.1',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '192.0.2.10',
    '198.18.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '[::1]',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '[::ffff:169.254.169.254]',
    '::ffff:10.1.2.3',
    '::127.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '2002:7f00:1::',
    '2001:db8::1',
  ])('%s is refused', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  test.each([
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '169.253.1.1',
    '2606:4700:4700::1111',
    '[2a00:1450:4001:80b::200e]',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ])('%s is allowed', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  test('a name is not an address: it is resolved at each send', () => {
    expect(isAddressLiteral('example.com')).toBe(false);
    expect(isPublicAddress('example.com')).toBe(false);
    expect(isAddressLiteral('[::1]')).toBe(true);
    expect(isAddressLiteral('10.0.0.1')).toBe(true);
  });

  test('at send time a name that resolves to loopback is refused, unless allowed', async () => {
    await expect(addressToSend('localhost', false)).rejects.toThrow(/not on the public internet/);
    await expect(addressToSend('[::ffff:127.0.0.1]', false)).rejects.toThrow(/not on the public/);
    expect(['127.0.0.1', '::1']).toContain(await addressToSend('localhost', true));
    expect(await addressToSend('93.184.216.34', false)).toBe('93.184.216.34');
  });
});
