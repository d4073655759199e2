/**
 * `lp-conformance init`'s probe of a family's OAuth 2.0 authorization-code flow (the profile's part of
 * it: src/profile/oauth.ts): where the flow is, read from the authorization server's metadata when
 * it publishes them (OpenID Connect Discovery 1.0 §4 at the issuer, or RFC 8414 §3), else whether the
 * authorization endpoint of the profile answers at all. The client and its redirect URI are the
 * user's to give: they are written as variables, and named when unset.
 */
import type { EnvRef, OAuthClientCredentials, OAuthFlowExpectations } from '../profile/base/types.js';
import type { InitContext, ToolAnswer } from './family.js';
import { isItem, ok, type PartBuilder, said } from './init-part.js';

/** The client's variables as the profile writes them, and what init says of them. */
export function oauthClientPart(ctx: InitContext, client: OAuthClientCredentials): { value: Record<string, EnvRef>; note: string } {
  const refs = Object.entries(client).filter((e): e is [string, EnvRef] => e[1] !== undefined);
  const unset = [client.clientId, client.clientSecret].filter((ref) => !ctx.isSet(ref)).map((ref) => ref.env);
  return {
    value: Object.fromEntries(refs.map(([k, ref]) => [k, { env: ref.env }])),
    note:
      unset.length === 0
        ? 'the OAuth 2.0 client of the authorization-code checks'
        : `the OAuth 2.0 client; ${unset.join(' and ')} not set: the OAuth checks are skipped until they are`,
  };
}

/** The path of `url` under `base`, or undefined when it is elsewhere. */
const under = (base: string, url: unknown): string | undefined => {
  if (typeof url !== 'string') return undefined;
  const root = base.replace(/\/+$/, '');
  return url.startsWith(`${root}/`) ? url.slice(root.length).split('?')[0] : undefined;
};

/** The metadata documents where a server at `issuer` publishes them, in the order tried. */
function metadataUrls(issuer: string): string[] {
  const at = new URL(issuer);
  const path = at.pathname.replace(/\/+$/, '');
  return [`${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`, `${at.origin}/.well-known/oauth-authorization-server${path}`];
}

/**
 * Fills `expectations…oauth` (at `path`) from what the target shows of its flow under `base`:
 * `flow` is the profile's (its defaults), `issuer` its default issuer.
 */
export async function probeOAuthFlow(
  ctx: InitContext,
  part: PartBuilder,
  options: { readonly path: readonly string[]; readonly base: string; readonly flow: OAuthFlowExpectations; readonly issuer: string },
): Promise<void> {
  const { path, base, flow } = options;
  const at = (key: string) => [...path, key];
  const unprobed = (keys: readonly string[], why: string) => {
    for (const key of keys) part.keep(at(key), why);
  };
  unprobed(['redirectUri', 'accessTokenMaxSeconds'], "not probed: the client's registered redirect URI and the tokens' lifetime show only in a flow");
  const issuer = flow.issuer ?? options.issuer;
  let tried: ToolAnswer | undefined;
  for (const url of metadataUrls(issuer)) {
    const answer = await ctx.get(url);
    tried ??= answer;
    const doc = answer.json;
    if (!ok(answer) || !isItem(doc)) continue;
    const authorizePath = under(base, doc.authorization_endpoint);
    const tokenPath = under(base, doc.token_endpoint);
    if (authorizePath === undefined || tokenPath === undefined) continue;
    const how = `the authorization server's metadata (${url})`;
    part.set(at('authorizePath'), authorizePath, `${how} names its endpoints under the base URL`);
    part.set(at('tokenPath'), tokenPath, '');
    if (typeof doc.issuer === 'string' && doc.issuer !== options.issuer) part.set(at('issuer'), doc.issuer, `${how} names the issuer`);
    else part.keep(at('issuer'), `${how} names the default issuer`);
    const scopes = Array.isArray(doc.scopes_supported)
      ? doc.scopes_supported.filter((s) => typeof s === 'string' && !['openid', 'offline_access'].includes(s))
      : [];
    if (scopes.length === 1) part.set(at('scope'), scopes[0], `${how} offers the one scope ${String(scopes[0])}`);
    else part.keep(at('scope'), `not found: ${how} offers ${scopes.length === 0 ? 'no scope' : `the scopes ${scopes.join(', ')}`} besides openid`);
    return;
  }
  // No metadata: the authorization endpoint of the profile, asked without a client, still answers
  // (an error page or a redirect) where it is there.
  const authorize = await ctx.get(`${base.replace(/\/+$/, '')}${flow.authorizePath}?response_type=code`);
  const none = `no metadata (${tried === undefined ? 'none tried' : said(tried)})`;
  const where =
    authorize.status === 0 || authorize.status === 404 || authorize.status === 405
      ? `not found: ${none}, and ${said(authorize)}: the flow is elsewhere or not offered (give its paths here; its checks fail until they are right)`
      : `${none}; ${said(authorize)}: an authorization endpoint is there (the token endpoint is not probed)`;
  unprobed(['authorizePath', 'tokenPath', 'scope', 'issuer'], where);
}
