import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DEFAULT_CREDENTIALS, DEFAULT_OAUTH_CREDENTIALS } from '../../src/families/intapi/profile.js';
import { LEARNER_PROFILE } from '../../src/families/learner/profile.js';
import { DEFAULT_PLAYER } from '../../src/families/player/profile.js';
import { SCIM_PROFILE } from '../../src/families/scim/profile.js';
import {
  DEFAULT_EXPECTATIONS,
  DEFAULT_TARGET_URL,
  DEFAULT_LIMITS,
  loadProfile,
  operation,
  OPERATION_IDS,
  OPERATIONS,
  parseProfile,
  ProfileError,
  referenceProfilePath,
  withTarget,
  type OperationId,
} from '../../src/profile/index.js';

const fixture = (path: string): string => fileURLToPath(new URL(`../../fixtures/profiles/${path}`, import.meta.url));

/** The error a call throws (fails the test when it does not throw a ProfileError). */
function profileError(fn: () => unknown): ProfileError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ProfileError);
    return error as ProfileError;
  }
  throw new Error('expected a ProfileError');
}

describe('the reference profile', () => {
  const p = loadProfile();

  it('is the bundled fixtures/profiles/reference.yaml', () => {
    expect(p.source).toBe(referenceProfilePath());
    expect(p.source).toBe(fixture('reference.yaml'));
    expect(p.name).toBe('reference');
  });

  it('names the fixed seed records (docs/decisions/core/seed-data.md)', () => {
    expect(p.records).toEqual({
      userId: '00000000-0000-4000-8000-000000000001',
      otherUserId: '00000000-0000-4000-8000-000000000002',
      courseId: '00000000-0000-4000-8000-000000000101',
      enrollment: { userId: '00000000-0000-4000-8000-000000000001', courseId: '00000000-0000-4000-8000-000000000101' },
      templateId: '00000000-0000-4000-8000-000000000201',
      playerCourseId: 'c0a50000-0000-4000-8000-000000000001',
      managerId: '00000000-0000-4000-8000-000000000301',
      learner: { userId: '00000000-0000-4000-8000-000000000004', email: 'walter@example.com' },
      multiSessionCourse: {
        courseId: '00000000-0000-4000-8000-000000000104',
        sessionIds: ['00000000-0000-4000-8000-000000000501', '00000000-0000-4000-8000-000000000502'],
      },
      deletedCourseEnrollment: { userId: '00000000-0000-4000-8000-000000000001', courseId: '00000000-0000-4000-8000-000000000109' },
      ruleEnrollment: { courseId: '00000000-0000-4000-8000-000000000106', property: 'jobTitle', value: 'New Hire', withinMs: 3000, unenrolls: true },
    });
  });

  it('authenticates with the LPC_* variables', () => {
    expect(p.credentials).toEqual({
      apiKey: { env: 'LPC_API_KEY' },
      username: { env: 'LPC_USERNAME' },
      password: { env: 'LPC_PASSWORD' },
      privateKey: { env: 'LPC_PRIVATE_KEY' },
    });
  });

  it('derives the SCIM and learner base URLs from the Integration API host', () => {
    expect(p.families).toEqual({
      intapi: { baseUrl: 'http://127.0.0.1:8080', explicit: true },
      scim: { baseUrl: 'http://127.0.0.1:8080/scim/v2', explicit: false },
      learner: { baseUrl: 'http://127.0.0.1:8080/api/rest/v2', explicit: false },
    });
  });

  it('uses the default route of every operation', () => {
    expect(p.operations).toEqual(OPERATIONS);
  });

  it('is frozen', () => {
    expect(Object.isFrozen(p)).toBe(true);
    expect(Object.isFrozen(p.expectations.lists.resources.filterable)).toBe(true);
  });

  // The defaults are the reference profile's values: the two must not drift apart.
  it('holds exactly the default values', () => {
    const raw = parse(readFileSync(referenceProfilePath(), 'utf8')) as Record<string, unknown>;
    expect(raw.expectations).toStrictEqual(DEFAULT_EXPECTATIONS);
    const { scim, learner, oauth, ...intapi } = raw.credentials as Record<string, unknown>;
    expect(oauth).toStrictEqual(DEFAULT_OAUTH_CREDENTIALS);
    expect(intapi).toStrictEqual(DEFAULT_CREDENTIALS);
    expect({ scim, learner }).toStrictEqual({ scim: SCIM_PROFILE.ownCredentials?.defaults, learner: LEARNER_PROFILE.ownCredentials?.defaults });
    expect(raw.families).toStrictEqual({ intapi: { baseUrl: DEFAULT_TARGET_URL } });
    expect(raw.operations).toStrictEqual({});
    expect(raw.player).toStrictEqual(DEFAULT_PLAYER);
  });
});

describe('OPERATIONS', () => {
  /** The operation table of the Integration API's choices (docs/decisions/intapi/reference-choices.md),
   * read from the document itself. Rows look like
   * `| submissions.list / .create | GET / POST /submissions |` or
   * `| templates.list / .get | GET /templates, GET /templates/{id} |`. */
  function developersTable(): Record<string, { method: string; path: string }> {
    const text = readFileSync(new URL('../../docs/decisions/intapi/reference-choices.md', import.meta.url), 'utf8');
    const table: Record<string, { method: string; path: string }> = {};
    for (const [, ids = '', routes = ''] of text.matchAll(/^\| ([a-zA-Z]+(?:\.[a-zA-Z]+)+(?: \/ \.[a-zA-Z]+)?) \| ([A-Z][^|]*?) \|$/gm)) {
      const [first = '', ...rest] = ids.split(' / ');
      const prefix = first.slice(0, first.lastIndexOf('.'));
      const names = [first, ...rest.map((r) => `${prefix}${r}`)];
      const pairs = routes.includes(',')
        ? routes.split(', ').map((r) => r.split(' ') as [string, string])
        : ((): [string, string][] => {
            const [, methods = '', path = ''] = /^((?:[A-Z]+ \/ )*[A-Z]+) (\/\S*)$/.exec(routes) ?? [];
            return methods.split(' / ').map((m) => [m, path]);
          })();
      names.forEach((name, i) => {
        const [method = '', path = ''] = pairs[i] ?? [];
        table[name] = { method, path };
      });
    }
    return table;
  }

  it('is the table of the documented choices', () => {
    expect(OPERATIONS).toEqual(developersTable());
    expect(OPERATION_IDS).toHaveLength(23 + 15 + 12 + 7 + 6 + 10);
  });

  it('operation() answers the profile route', () => {
    const p = parseProfile('name: x\noperations:\n  submissions.update: { method: PATCH, path: "/external-training/{id}" }\n', 'x.yaml');
    expect(operation(p, 'submissions.update')).toEqual({ method: 'PATCH', path: '/external-training/{id}' });
    expect(operation(p, 'submissions.get')).toEqual({ method: 'GET', path: '/submissions/{id}' });
  });

  it('operation() refuses an unknown operation id', () => {
    expect(() => operation(loadProfile(), 'submissions.delete' as OperationId)).toThrow(/unknown operation submissions\.delete/);
  });
});

describe('defaults', () => {
  it('a profile with only a name gets every default, and no records', () => {
    const p = parseProfile('name: minimal\n', 'minimal.yaml');
    expect(p).toEqual({
      name: 'minimal',
      source: 'minimal.yaml',
      families: {
        intapi: { baseUrl: DEFAULT_TARGET_URL, explicit: false },
        scim: { baseUrl: `${DEFAULT_TARGET_URL}/scim/v2`, explicit: false },
        learner: { baseUrl: `${DEFAULT_TARGET_URL}/api/rest/v2`, explicit: false },
      },
      credentials: DEFAULT_CREDENTIALS,
      familyCredentials: { scim: SCIM_PROFILE.ownCredentials?.defaults, learner: LEARNER_PROFILE.ownCredentials?.defaults },
      oauthCredentials: DEFAULT_OAUTH_CREDENTIALS,
      records: {},
      player: DEFAULT_PLAYER,
      operations: OPERATIONS,
      limits: DEFAULT_LIMITS,
      expectations: DEFAULT_EXPECTATIONS,
    });
  });

  it('limits.maxUrlBytes: at least 1024 bytes, 8000 by default', () => {
    expect(parseProfile('name: x\nlimits: { maxUrlBytes: 4096 }\n', 'x.yaml').limits).toEqual({ maxUrlBytes: 4096 });
    expect(loadProfile().limits).toEqual(DEFAULT_LIMITS);
    expect(DEFAULT_LIMITS).toEqual({ maxUrlBytes: 8000 });
    expect(profileError(() => parseProfile('name: x\nlimits: { maxUrlBytes: 100 }\n', 'x.yaml')).message).toMatch(/limits\.maxUrlBytes must be at least 1024/);
  });

  it('player: none says the target has no course player; a partial player merges with the defaults', () => {
    expect(parseProfile('name: x\nplayer: none\n', 'x.yaml').player).toBe('none');
    const p = parseProfile("name: x\nplayer:\n  selectors: { tag: '.tag' }\n", 'x.yaml');
    expect(p.player).toEqual({ ...DEFAULT_PLAYER, selectors: { ...DEFAULT_PLAYER.selectors, tag: '.tag' } });
  });

  it('expectations merge key by key', () => {
    const p = parseProfile('name: x\nexpectations:\n  submissions: { createStatus: 200 }\n  versioning: { missingHeader: 2 }\n', 'x.yaml');
    expect(p.expectations.submissions).toEqual({ createStatus: 200, updateStatus: 200, unknownReferenceStatus: 404 });
    expect(p.expectations.versioning).toEqual({ missingHeader: 2, unsupportedStatus: 400, v2OnlyWithV1Status: 404 });
    expect(p.expectations.lists).toEqual(DEFAULT_EXPECTATIONS.lists);
  });

  it('a list of fields replaces the default list', () => {
    const p = parseProfile('name: x\nexpectations:\n  lists:\n    resources: { filterable: [name] }\n', 'x.yaml');
    expect(p.expectations.lists.resources).toEqual({ filterable: ['name'], sortable: ['id', 'name', 'description', 'file'] });
    expect(parseProfile('name: x\nexpectations: { lists: { templates: { sortable: [] } } }\n', 'x.yaml').expectations.lists.templates.sortable).toEqual([]);
  });

  it('an operation override keeps the default of what it does not give', () => {
    const p = parseProfile('name: x\noperations:\n  submissions.update: { method: PATCH }\n', 'x.yaml');
    expect(p.operations['submissions.update']).toEqual({ method: 'PATCH', path: '/submissions/{id}' });
    expect(p.operations['submissions.create']).toEqual(OPERATIONS['submissions.create']);
  });

  it('a token replaces the login variables', () => {
    const p = parseProfile('name: x\ncredentials:\n  token: { env: MY_TOKEN }\n', 'x.yaml');
    expect(p.credentials).toEqual({ apiKey: { env: 'LPC_API_KEY' }, token: { env: 'MY_TOKEN' } });
  });

  it('login variables given in full are used', () => {
    const p = parseProfile(
      'name: x\ncredentials:\n  apiKey: { env: K }\n  username: { env: U }\n  password: { env: P }\n  privateKey: { env: PK }\n',
      'x.yaml',
    );
    expect(p.credentials).toEqual({ apiKey: { env: 'K' }, username: { env: 'U' }, password: { env: 'P' }, privateKey: { env: 'PK' } });
  });

  it('an API key alone keeps the default login variables', () => {
    const p = parseProfile('name: x\ncredentials: { apiKey: { env: K } }\n', 'x.yaml');
    expect(p.credentials).toEqual({ ...DEFAULT_CREDENTIALS, apiKey: { env: 'K' } });
  });

  it('SCIM and learner base URLs follow the Integration API unless given', () => {
    const p = parseProfile(
      'name: x\nfamilies:\n  intapi: { baseUrl: "https://api.example.com/" }\n  scim: { baseUrl: "https://portal.example.com/scim/v2" }\n',
      'x.yaml',
    );
    expect(p.families).toEqual({
      intapi: { baseUrl: 'https://api.example.com/', explicit: true },
      scim: { baseUrl: 'https://portal.example.com/scim/v2', explicit: true },
      learner: { baseUrl: 'https://api.example.com/api/rest/v2', explicit: false },
    });
  });

  it('records are taken as given', () => {
    const p = parseProfile('name: x\nrecords: { templateId: 6F1C2A9E-3B4D-4E5F-8A9B-0C1D2E3F4A5B }\n', 'x.yaml');
    expect(p.records).toEqual({ templateId: '6F1C2A9E-3B4D-4E5F-8A9B-0C1D2E3F4A5B' });
  });

  it("an automatic enrollment rule gets the specification's 10 minutes and unenrollment unless it says otherwise", () => {
    const rule = 'records:\n  ruleEnrollment: { courseId: 00000000-0000-4000-8000-000000000106, property: jobTitle, value: Nurse';
    expect(parseProfile(`name: x\n${rule} }\n`, 'x.yaml').records.ruleEnrollment).toEqual({
      courseId: '00000000-0000-4000-8000-000000000106',
      property: 'jobTitle',
      value: 'Nurse',
      withinMs: 600_000,
      unenrolls: true,
    });
    expect(parseProfile(`name: x\n${rule}, withinMs: 5000, unenrolls: false }\n`, 'x.yaml').records.ruleEnrollment).toMatchObject({
      withinMs: 5000,
      unenrolls: false,
    });
  });
});

describe('a bad profile answers one line naming the field and the file', () => {
  // Each with the line and column of its field in the file, when the YAML has it.
  const cases: [file: string, position: string, problem: string][] = [
    ['syntax.yaml', '', 'YAML syntax error: Flow sequence in block collection must be sufficiently indented and end with a ] at line 4, column 45'],
    ['duplicate-key.yaml', '', 'YAML syntax error: Map keys must be unique at line 4, column 3'],
    ['empty.yaml', '', 'document must be a mapping'],
    ['no-name.yaml', '', 'name is required'],
    ['unknown-key.yaml', ':3:3', 'expectations.submisions is not allowed (did you mean submissions?)'],
    ['wrong-type.yaml', ':4:5', 'expectations.submissions.createStatus must be integer'],
    ['status-range.yaml', ':4:5', 'expectations.versioning.unsupportedStatus must be at most 599'],
    ['missing-header.yaml', ':4:5', 'expectations.versioning.missingHeader must be one of 1, 2'],
    ['inline-secret.yaml', ':4:3', 'credentials.apiKey must be a mapping: { env: NAME }, naming the environment variable that holds it'],
    ['env-name.yaml', ':3:13', 'credentials.apiKey.env must be an environment variable name'],
    ['token-and-login.yaml', ':5:3', 'credentials.username is not allowed with credentials.token'],
    ['partial-login.yaml', ':2:1', 'credentials.password is required with credentials.username'],
    ['base-url.yaml', ':3:13', 'families.intapi.baseUrl must be an absolute http or https URL without query or fragment'],
    ['record-guid.yaml', ':3:3', 'records.userId must be a guid'],
    ['partial-enrollment.yaml', ':3:3', 'records.enrollment.courseId is required'],
    ['rule-delay.yaml', ':7:5', 'records.ruleEnrollment.withinMs must be at most 600000'],
    ['unknown-operation.yaml', ':3:3', 'operations["submission.update"] is not allowed (did you mean submissions.update?)'],
    ['operation-method.yaml', ':3:25', 'operations["submissions.update"].method must be one of GET, POST, PUT, PATCH, DELETE'],
    ['operation-parameters.yaml', ':4:40', 'operations["submissions.update"].path must have the parameters {id}'],
    ['unknown-list-field.yaml', ':5:20', 'expectations.lists.resources.filterable[0] must be one of id, name, description, file'],
    ['duplicate-list-field.yaml', ':5:7', 'expectations.lists.templates.sortable must not list "name" twice'],
    ['question-types.yaml', ':3:3', 'expectations.questionTypes must give each question type a different integer'],
    ['default-limit.yaml', ':5:5', 'expectations.lists.defaultLimit must be at most expectations.lists.maxLimit (100)'],
  ];

  it.each(cases)('bad/%s', (name, position, problem) => {
    const file = fixture(`bad/${name}`);
    const error = profileError(() => loadProfile(file));
    expect(error.message).toBe(`profile ${file}${position}: ${problem}`);
    expect(error.message).not.toContain('\n');
  });

  it('every fixture in fixtures/profiles/bad has a case', async () => {
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(fixture('bad')).sort()).toEqual(cases.map(([f]) => f).sort());
  });

  it('the field is available on the error', () => {
    expect(profileError(() => loadProfile(fixture('bad/wrong-type.yaml'))).field).toBe('expectations.submissions.createStatus');
  });

  it('all problems are kept, the message is the first', () => {
    const error = profileError(() => parseProfile('name: x\nexpectations:\n  notJsonStatus: "400"\n  pathIdNotGuidStatus: 1000\n', 'x.yaml'));
    expect(error.message).toBe('profile x.yaml:4:3: expectations.pathIdNotGuidStatus must be at most 599');
    expect(error.problems).toEqual([
      'profile x.yaml:4:3: expectations.pathIdNotGuidStatus must be at most 599',
      'profile x.yaml:3:3: expectations.notJsonStatus must be integer',
    ]);
  });

  it('a misspelt field names the closest one, at its line and column', () => {
    const text = 'name: x\nexpectations:\n  lists:\n    defaultLimt: 20\n';
    expect(profileError(() => parseProfile(text, 'x.yaml')).message).toBe(
      'profile x.yaml:4:5: expectations.lists.defaultLimt is not allowed (did you mean defaultLimit?)',
    );
    // A document that is no file (the library's profile object) has no lines to name.
    expect(profileError(() => parseProfile(text, '(profile object)', { positions: false })).message).toBe(
      'profile (profile object): expectations.lists.defaultLimt is not allowed (did you mean defaultLimit?)',
    );
  });

  it('a missing file', () => {
    expect(profileError(() => loadProfile('no/such/profile.yaml')).message).toBe('profile no/such/profile.yaml: file not found');
  });

  it('a directory', () => {
    const dir = fixture('bad');
    expect(profileError(() => loadProfile(dir)).message).toBe(`profile ${dir}: is a directory, not a file`);
  });

  it('a YAML scalar instead of a mapping', () => {
    expect(profileError(() => parseProfile('just text\n', 'x.yaml')).message).toBe('profile x.yaml: document must be a mapping');
  });
});

describe('withTarget', () => {
  const reference = loadProfile();

  it('aims every family at the target', () => {
    const p = withTarget(reference, 'http://10.0.0.5:9000');
    expect(p.families).toEqual({
      intapi: { baseUrl: 'http://10.0.0.5:9000', explicit: false },
      scim: { baseUrl: 'http://10.0.0.5:9000/scim/v2', explicit: false },
      learner: { baseUrl: 'http://10.0.0.5:9000/api/rest/v2', explicit: false },
    });
    expect(p.records).toBe(reference.records);
    expect(p.expectations).toBe(reference.expectations);
  });

  it('drops trailing slashes and keeps a path prefix', () => {
    const p = withTarget(reference, 'https://gw.example.com/lms/');
    expect(p.families.intapi.baseUrl).toBe('https://gw.example.com/lms');
    expect(p.families.scim.baseUrl).toBe('https://gw.example.com/lms/scim/v2');
  });

  it('keeps base URLs the profile set explicitly', () => {
    const own = parseProfile('name: x\nfamilies:\n  learner: { baseUrl: "https://portal.example.com/api/rest/v2" }\n', 'x.yaml');
    const p = withTarget(own, 'http://127.0.0.1:3000');
    expect(p.families.learner).toEqual({ baseUrl: 'https://portal.example.com/api/rest/v2', explicit: true });
    expect(p.families.scim).toEqual({ baseUrl: 'http://127.0.0.1:3000/scim/v2', explicit: false });
  });

  it('does not change the profile it is given', () => {
    withTarget(reference, 'http://10.0.0.5:9000');
    expect(reference.families.intapi.baseUrl).toBe('http://127.0.0.1:8080');
    expect(Object.isFrozen(withTarget(reference, 'http://10.0.0.5:9000').families)).toBe(true);
  });

  it.each(['127.0.0.1:8080', 'ftp://example.com', 'http://example.com/?x=1', 'not a url'])('refuses %s', (url) => {
    const error = profileError(() => withTarget(reference, url));
    expect(error.message).toBe(`target ${url}: must be an absolute http or https URL without query or fragment`);
  });
});
