// npm's oidc-provider on loopback for scripts/auth/run.sh (not CI):
//
//   node provider.mjs PORT RESOURCE...
//
// Issuer http://127.0.0.1:PORT, keys generated at start. Resource indicators (RFC 8707) on:
// each RESOURCE (the protected MCP endpoints, and another resource server for a token with
// the wrong audience) gets JWT access tokens whose `aud` is that resource; any other resource
// is refused. Scopes `mcp:tools` and `mcp:other`. Dynamic registration and the dev
// login and consent pages for the client's authorization code flow (any login and password);
// the client credentials grant for the script's own tokens, with two pre-registered clients:
// `script` and `script-expired` (secret `script-secret`), the latter's tokens valid 1 second.
import crypto from 'node:crypto';
import Provider, { errors } from 'oidc-provider';

const [port, ...resources] = process.argv.slice(2);
if (!port || resources.length === 0) {
  console.error('usage: node provider.mjs PORT RESOURCE...');
  process.exit(2);
}
const issuer = `http://127.0.0.1:${port}`;

// The signing keys: RS256 for ID tokens (OpenID Connect's default), ES256 for access tokens.
const key = (type, options, alg) => ({
  ...crypto.generateKeyPairSync(type, options).privateKey.export({ format: 'jwk' }),
  alg,
  use: 'sig',
  kid: `${alg.toLowerCase()}-${crypto.randomBytes(4).toString('hex')}`,
});
const jwks = {
  keys: [
    key('rsa', { modulusLength: 2048 }, 'RS256'),
    key('ec', { namedCurve: 'P-256' }, 'ES256'),
  ],
};

const machine = (clientId) => ({
  client_id: clientId,
  client_secret: 'script-secret',
  grant_types: ['client_credentials'],
  response_types: [],
  redirect_uris: [],
});

const provider = new Provider(issuer, {
  clients: [machine('script'), machine('script-expired')],
  jwks,
  cookies: { keys: [crypto.randomBytes(32).toString('hex')] },
  scopes: ['openid', 'offline_access', 'mcp:tools', 'mcp:other'],
  pkce: { required: () => true },
  features: {
    devInteractions: { enabled: true },
    clientCredentials: { enabled: true },
    registration: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: (_ctx, _client, oneOf) => oneOf,
      useGrantedResource: () => true,
      getResourceServerInfo: (_ctx, indicator, client) => {
        if (!resources.includes(indicator)) {
          throw new errors.InvalidTarget(`unknown resource ${indicator}`);
        }
        return {
          scope: 'mcp:tools mcp:other',
          audience: indicator,
          accessTokenFormat: 'jwt',
          accessTokenTTL: client.clientId === 'script-expired' ? 1 : 600,
          jwt: { sign: { alg: 'ES256' } },
        };
      },
    },
  },
});
// What happened, for the script's logs (errors with their description).
provider.on('registration_create.success', (_ctx, client) => console.error('registered client', client.clientId, client.applicationType, client.redirectUris.join(' ')));
provider.on('grant.success', (ctx) => console.error('granted', ctx.oidc.params.grant_type, 'to', ctx.oidc.client?.clientId, 'for', ctx.oidc.params.resource ?? '-'));
provider.on('server_error', (_ctx, error) => console.error('server_error', error));
provider.on('grant.error', (_ctx, error) => console.error('grant.error', error.message, error.error_description ?? ''));
provider.on('authorization.error', (_ctx, error) => console.error('authorization.error', error.message, error.error_description ?? ''));
provider.on('registration_create.error', (_ctx, error) => console.error('registration_create.error', error.message, error.error_description ?? ''));
provider.listen(Number(port), '127.0.0.1', () => console.error(`oidc-provider listening at ${issuer}`));
