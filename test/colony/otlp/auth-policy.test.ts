import { describe, expect, it } from 'vitest';
import { bearerToken, checkAccess } from '../../../src/colony/otlp/auth.js';

describe('bearer tokens', () => {
  it('reads the token after the scheme in any case and one space; blanks around the whole value are not part of it', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bEaReR abc')).toBe('abc');
    expect(bearerToken(' Bearer abc \t ')).toBe('abc');
    expect(bearerToken('Bearer abc.def/ghi=')).toBe('abc.def/ghi=');
  });

  it('refuses other schemes, a missing token, other separators, blanks in the token and anything before the scheme', () => {
    for (const bad of ['Basic abc', 'Bearer', 'Bearer ', 'Bearer \t ', 'Bearerabc', 'bEaReR\tabc', 'Bearer  abc', 'Bearer a b', 'x Bearer abc', 'xBearer abc', '']) expect(bearerToken(bad), bad).toBeNull();
    expect(bearerToken(undefined)).toBeNull();
  });
});

describe('access policy', () => {
  const hosts = ['127.0.0.1:4318', 'LocalHost:4318'];
  const hostDenied = (host: string) => ({ status: 403, message: `Host "${host}" is not allowed (DNS-rebinding protection); connect to 127.0.0.1:4318.`, headers: {} });
  const tokenDenied = { status: 401, message: 'Missing or wrong bearer token: send Authorization: Bearer <token> (the --token the colony was started with).', headers: { 'www-authenticate': 'Bearer' } };

  it('admits only the allowed hosts, compared case-insensitively, naming the first in the refusal', () => {
    expect(checkAccess({ allowedHosts: hosts }, 'localhost:4318', undefined)).toBeNull();
    expect(checkAccess({ allowedHosts: hosts }, '127.0.0.1:4318', undefined)).toBeNull();
    expect(checkAccess({ allowedHosts: hosts }, 'evil.example:4318', undefined)).toEqual(hostDenied('evil.example:4318'));
    expect(checkAccess({ allowedHosts: hosts }, 'localhost:4319', undefined)).toEqual(hostDenied('localhost:4319'));
    expect(checkAccess({ allowedHosts: hosts }, undefined, undefined)).toEqual(hostDenied(''));
  });

  it('admits any host when none is listed', () => {
    expect(checkAccess({ allowedHosts: [] }, 'anything:1', undefined)).toBeNull();
    expect(checkAccess({ allowedHosts: [] }, undefined, undefined)).toBeNull();
  });

  it('with a token, requires exactly it: not missing, not another of any length', () => {
    const policy = { allowedHosts: [], token: 's3cret' };
    expect(checkAccess(policy, 'h', 'Bearer s3cret')).toBeNull();
    expect(checkAccess(policy, 'h', 'bearer s3cret')).toBeNull();
    for (const auth of [undefined, 'Bearer s3creT', 'Bearer s3cre', 'Bearer s3crets', 'Basic s3cret', 'Bearer ']) expect(checkAccess(policy, 'h', auth), String(auth)).toEqual(tokenDenied);
  });

  it('checks the host before the token', () => {
    expect(checkAccess({ allowedHosts: hosts, token: 't' }, 'evil:1', undefined)?.status).toBe(403);
    expect(checkAccess({ allowedHosts: hosts, token: 't' }, '127.0.0.1:4318', undefined)?.status).toBe(401);
  });
});
