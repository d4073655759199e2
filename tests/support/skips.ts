/**
 * Skips that follow from what the profile declares of the target, not from a gap in the set-up: a
 * capability it does not serve (RFC 7644 leaves /ServiceProviderConfig, /Bulk, /Me and resource versions
 * to the provider; the specification's rule 4) or an identity provider it is not meant for. A run
 * against the reference server skips these by design (the reasons are written in
 * suites/_harness/scim/capabilities.ts and suites/scim/client.check.ts).
 */
const DECLARED = [
  /^the profile says the target does not serve \S+ \(expectations\.scim\.unsupported/,
  /^the target serves no \/ServiceProviderConfig and the profile does not say it versions resources/,
  /^the profile names no identity provider that sends this request \(expectations\.scim\.client/,
];

/** Whether a skip reason is one of those the target's declared choices give. */
export function declaredChoice(reason: string | undefined): boolean {
  return reason !== undefined && DECLARED.some((re) => re.test(reason));
}
