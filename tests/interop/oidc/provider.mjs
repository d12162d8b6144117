// An OpenID Provider (oidc-provider, certified) on 127.0.0.1 for the OAuth tests and the demo fleet.
//
//   node provider.mjs [--port N] [--access-ttl SECONDS] [--exit-on-stdin-eof]
//
// Clients: `switchboard-service` (confidential, client_credentials; its secret from OIDC_SERVICE_SECRET) and
// `switchboard-cli` (public, authorization_code + refresh_token + device_code, PKCE required, loopback redirect on
// any port). Resource indicators (RFC 8707): any http(s) resource gets RS256 JWT access tokens whose audience is
// that resource, with the scopes a2a:send and a2a:admin. Login and consent are the provider's dev pages (any user).
// Prints `READY <issuer>` once it listens.
import crypto from 'node:crypto';
import http from 'node:http';
import process from 'node:process';
import Provider from 'oidc-provider';

function arg(name, fallback) {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

const port = Number(arg('--port', '0'));
const accessTtl = Number(arg('--access-ttl', '600'));
const serviceSecret = process.env.OIDC_SERVICE_SECRET;
if (!serviceSecret) {
  console.error('OIDC_SERVICE_SECRET must hold the confidential client secret');
  process.exit(2);
}
export const RESOURCE_SCOPES = 'a2a:send a2a:admin';

const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: 'test-rs256', alg: 'RS256', use: 'sig' };

const server = http.createServer();
server.listen(port, '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'switchboard-service',
        client_secret: serviceSecret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        token_endpoint_auth_method: 'client_secret_basic',
      },
      {
        client_id: 'switchboard-cli',
        application_type: 'native',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'],
        response_types: ['code'],
        redirect_uris: ['http://127.0.0.1/callback'],
      },
    ],
    jwks: { keys: [signingKey] },
    pkce: { required: () => true },
    scopes: ['openid', 'offline_access', 'profile'],
    ttl: { AccessToken: accessTtl, ClientCredentials: accessTtl, DeviceCode: 600, Grant: 3600, Interaction: 600, Session: 3600 },
    features: {
      devInteractions: { enabled: true },
      clientCredentials: { enabled: true },
      deviceFlow: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: async (_ctx, _client, oneOf) => oneOf,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, resource) => {
          if (!/^https?:\/\//.test(resource)) throw new Provider.errors.InvalidTarget();
          return {
            scope: RESOURCE_SCOPES,
            audience: resource,
            accessTokenTTL: accessTtl,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
  });
  // Refresh tokens for the public client whenever offline_access was granted (the device flow has no prompt).
  server.on('request', provider.callback());
  process.stdout.write(`READY ${issuer}\n`);
});

if (process.argv.includes('--exit-on-stdin-eof')) {
  process.stdin.on('end', () => process.exit(0));
  process.stdin.resume();
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0));
