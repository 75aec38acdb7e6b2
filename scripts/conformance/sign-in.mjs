// Sign a person in to avenir-mcp's hosted mode the way an MCP client and its browser do, and print
// the access token: Dynamic Client Registration, PKCE (S256), the consent page ("read and
// change"), YNAB's sign-in (the sandbox's, which consents at once), the callback, the token
// endpoint. The conformance suite cannot do OAuth against a server that signs people in with
// another provider, so the run gives it this token through auth-proxy.mjs.
//
//   node sign-in.mjs <public-url>
import { createHash, randomBytes } from 'node:crypto';

const [publicUrl] = process.argv.slice(2);
if (!publicUrl) {
  console.error('usage: node sign-in.mjs <public-url>');
  process.exit(2);
}
const redirectUri = 'http://127.0.0.1:9/callback';
const fail = (what, detail) => {
  console.error(`sign-in: ${what}${detail ? `: ${detail}` : ''}`);
  process.exit(1);
};
const base64url = (bytes) => Buffer.from(bytes).toString('base64url');
const form = (fields) => new URLSearchParams(fields).toString();

const registered = await fetch(`${publicUrl}/register`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    client_name: 'MCP conformance run',
    redirect_uris: [redirectUri],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  }),
});
if (registered.status !== 201) fail('registration refused', `${registered.status} ${await registered.text()}`);
const { client_id: clientId } = await registered.json();

const verifier = base64url(randomBytes(32));
const challenge = base64url(createHash('sha256').update(verifier).digest());
const state = base64url(randomBytes(16));
const authorize = `${publicUrl}/authorize?${form({
  response_type: 'code',
  client_id: clientId,
  redirect_uri: redirectUri,
  code_challenge: challenge,
  code_challenge_method: 'S256',
  state,
  scope: 'read write',
  resource: `${publicUrl}/mcp`,
})}`;
const page = await fetch(authorize, { redirect: 'manual' });
if (page.status !== 200) fail('no consent page', `${page.status} ${await page.text()}`);
const cookie = page.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
const html = await page.text();
const consent = html.match(/name="consent" value="([^"]+)"/)?.[1];
if (!consent) fail('the consent page has no form');

let answer = await fetch(`${publicUrl}/authorize`, {
  method: 'POST',
  redirect: 'manual',
  headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
  body: form({ consent, access: 'write' }),
});
let landing;
for (let hop = 0; hop < 5 && !landing; hop++) {
  const location = answer.headers.get('location');
  if (answer.status < 300 || answer.status >= 400 || !location) {
    fail('the sign-in stopped', `${answer.status} ${await answer.text()}`);
  }
  if (location.startsWith(redirectUri)) landing = new URL(location);
  else answer = await fetch(location, { redirect: 'manual' });
}
if (!landing) fail('the sign-in never came back to the client');
if (landing.searchParams.get('state') !== state) fail('the state came back changed');
if (landing.searchParams.get('iss') !== publicUrl) fail('no iss, or another issuer', landing.searchParams.get('iss'));
const code = landing.searchParams.get('code');
if (!code) fail('no code', landing.toString());

const tokens = await fetch(`${publicUrl}/token`, {
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: form({
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    client_id: clientId,
    code_verifier: verifier,
    resource: `${publicUrl}/mcp`,
  }),
});
if (tokens.status !== 200) fail('the token endpoint refused', `${tokens.status} ${await tokens.text()}`);
const { access_token: accessToken } = await tokens.json();
if (!accessToken) fail('no access token');
process.stdout.write(`${accessToken}\n`);
