// The commented profile `lp-conformance init` writes (src/profile/write.ts): the values found load as
// they were found, each under a comment saying how; the values missing are commented out where they
// belong, with why, and uncommented they load too.
import { describe, expect, it } from 'vitest';
import { parseProfile, PROFILE_SCHEMA } from '../../src/profile/index.js';
import { commentedProfile } from '../../src/profile/write.js';

const USER = '3f1c2b7a-9d4e-4c1f-8a2b-5e6d7c8b9a01';
const SESSION = '8c7d6e5f-4a3b-4c2d-9e1f-0a1b2c3d4e5f';
const ORDER = Object.keys(PROFILE_SCHEMA.properties);

const text = commentedProfile(
  ['Header line', '  lp-conformance run --target https://lms.example.test --profile it.yaml --check-profile'],
  [
    {
      found: [
        { path: ['expectations', 'versioning', 'missingHeader'], value: 2, how: 'GET /resources without x-api-version answered the envelope' },
        { path: ['name'], value: 'lms', how: 'the host' },
        { path: ['credentials', 'apiKey'], value: { env: 'MY_KEY' }, how: 'the variables init used' },
        { path: ['credentials', 'username'], value: { env: 'MY_USER' }, how: '' },
        { path: ['credentials', 'password'], value: { env: 'MY_PASS' }, how: '' },
        { path: ['credentials', 'privateKey'], value: { env: 'MY_PRIV' }, how: '' },
        { path: ['records', 'userId'], value: USER, how: 'the credentials’ own user' },
        { path: ['families', 'scim'], value: 'none', how: 'GET /scim/v2/Users answered 404' },
      ],
      missing: [
        {
          path: ['records', 'multiSessionCourse'],
          why: 'not found: no enrollment holds two sessions',
          example: { courseId: '<guid>', sessionIds: ['<guid>', '<guid>'] },
        },
        { path: ['mailbox'], why: 'not found: not in the API', example: { api: 'http://mail.example.test:8025' } },
        { path: ['expectations', 'submissions', 'createStatus'], why: 'not probed: a write', example: 201, defaults: true },
        { path: ['expectations', 'submissions', 'updateStatus'], why: 'not probed: a write', example: 200, defaults: true },
      ],
    },
  ],
  ORDER,
);

describe('the commented profile', () => {
  it('loads with the values found, and the defaults where values are missing', () => {
    const p = parseProfile(text, 'it.yaml');
    expect(p.name).toBe('lms');
    expect(p.records).toEqual({ userId: USER });
    expect(p.credentials).toEqual({ apiKey: { env: 'MY_KEY' }, username: { env: 'MY_USER' }, password: { env: 'MY_PASS' }, privateKey: { env: 'MY_PRIV' } });
    expect(p.families.scim.none).toBe(true);
    expect(p.expectations.versioning.missingHeader).toBe(2);
    expect(p.expectations.submissions.createStatus).toBe(201);
  });

  it('says how each value was found above it, in the schema order of the top-level keys', () => {
    expect(text).toContain('# the credentials’ own user\n  userId: 3f1c2b7a');
    expect(text).toContain('  # the variables init used\n  apiKey: { env: MY_KEY }\n  username: { env: MY_USER }');
    expect(text.indexOf('name: lms')).toBeLessThan(text.indexOf('families:'));
    expect(text.indexOf('records:')).toBeLessThan(text.indexOf('expectations:'));
    expect(text.startsWith('# Header line\n#   lp-conformance run --target https://lms.example.test --profile it.yaml --check-profile\n')).toBe(true);
  });

  it('comments out what is missing where it belongs, with why, one reason for a section that shares it', () => {
    expect(text).toContain(
      '  # records.multiSessionCourse: not found: no enrollment holds two sessions\n  # multiSessionCourse:\n  #   courseId: <guid>\n  #   sessionIds: [ <guid>, <guid> ]\n',
    );
    expect(text).toContain('# mailbox: not found: not in the API\n# mailbox:\n#   api: http://mail.example.test:8025\n');
    expect(text).toContain('  # expectations.submissions: not probed: a write\n  # submissions:\n  #   createStatus: 201\n  #   updateStatus: 200\n');
  });

  it('uncommented, what was missing loads too', () => {
    const filled = text
      .replace(
        '# multiSessionCourse:\n  #   courseId: <guid>\n  #   sessionIds: [ <guid>, <guid> ]',
        `multiSessionCourse:\n    courseId: ${USER}\n    sessionIds: [ ${USER}, ${SESSION} ]`,
      )
      .replace('# mailbox:\n#   api: http://mail.example.test:8025', 'mailbox:\n  api: http://mail.example.test:8025');
    const p = parseProfile(filled, 'filled.yaml');
    expect(p.records.multiSessionCourse).toEqual({ courseId: USER, sessionIds: [USER, SESSION] });
    expect(p.mailbox).toEqual({ api: 'http://mail.example.test:8025' });
  });
});
