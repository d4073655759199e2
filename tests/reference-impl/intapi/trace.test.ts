// The trace of the behaviour table (reference-impl/intapi/trace.ts), on which the negative controls
// narrow a fault's sweep: each read is given the request being served, reads outside a request none,
// and a fault's changed entries are named as the trace names them.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { intapiFaultedPaths, listIntapiFaults, type TracedRequest } from '../../../reference-impl/index.js';
import { type Harness, startServer } from './_support.js';

interface Read {
  path: string;
  request?: TracedRequest;
}
const reads: Read[] = [];
const writes: TracedRequest[] = [];
let h: Harness;
const atStart: Read[] = [];

beforeAll(async () => {
  let started = false;
  h = await startServer({
    families: {
      intapi: {
        traceBehaviour: {
          read: (path, request) => void (started ? reads : atStart).push(request ? { path, request } : { path }),
          write: (request) => void writes.push(request),
        },
      },
    },
  });
  started = true;
});
afterAll(() => h.close());

const readsOf = (check: string): Read[] => reads.filter((r) => r.request?.check === check);

describe('the trace of the behaviour table', () => {
  test("a list's reads are its request's: the check it names, its operation and method", async () => {
    const r = await h.get('/resources?_sort=-name', { headers: { 'x-lpc-check': 'trace.sort' } });
    expect(r.status).toBe(200);
    const paths = readsOf('trace.sort').map((x) => x.path);
    expect(paths).toContain('lists.sort.descending');
    // The guard's reads are the request's too.
    expect(paths).toContain('auth.rawToken');
    expect(new Set(readsOf('trace.sort').map((x) => `${x.request?.method} ${x.request?.operation}`))).toEqual(new Set(['GET resources.list']));
  });

  test('an entry a request does not reach is not read: an ascending sort reads no descending rule', async () => {
    await h.get('/resources?_sort=name', { headers: { 'x-lpc-check': 'trace.ascending' } });
    expect(readsOf('trace.ascending').map((x) => x.path)).not.toContain('lists.sort.descending');
  });

  test('a request that stores something reports its writes; a list reports none', async () => {
    await h.get('/resources', { headers: { 'x-lpc-check': 'trace.list' } });
    expect(writes.filter((w) => w.check === 'trace.list')).toEqual([]);
    const created = await h.call('POST', '/question-banks', { body: { name: 'Traced bank' }, headers: { 'x-lpc-check': 'trace.create' } });
    expect(created.status).toBeLessThan(300);
    const written = writes.filter((w) => w.check === 'trace.create');
    expect(written.length).toBeGreaterThan(0);
    // The same request object for its guard's reads and its handler's writes.
    expect(readsOf('trace.create').some((r) => r.request === written[0])).toBe(true);
  });

  test('reads outside a request (building the server) have no request', () => {
    // Building the server and the harness's log-in (a request without x-lpc-check).
    const building = atStart.filter((x) => x.request === undefined);
    expect(building.map((x) => x.path)).toContain('http.bodyLimit');
    expect(atStart.filter((x) => x.request !== undefined).every((x) => x.request?.operation === 'auth.authenticate' && x.request.check === undefined)).toBe(
      true,
    );
  });

  test('a traced server answers as an untraced one', async () => {
    const plain = await startServer();
    try {
      for (const path of ['/resources?_sort=-name', '/resources?_limit=2', '/resources/not-a-guid']) {
        const [a, b] = await Promise.all([h.get(path), plain.get(path)]);
        expect([a.status, a.text], path).toEqual([b.status, b.text]);
      }
    } finally {
      await plain.close();
    }
  });
});

describe('the entries a fault changes', () => {
  test('are named as the trace names them', () => {
    expect(intapiFaultedPaths('intapi.sort-desc-ignored')).toEqual(['lists.sort.descending']);
    expect(intapiFaultedPaths('intapi.field-names-case-sensitive')).toEqual(['lists.filter.fieldNames', 'lists.sort.fieldNames']);
  });

  test('every fault changes at least one entry (a fault is a patch of the table)', () => {
    expect(listIntapiFaults().filter((f) => intapiFaultedPaths(f).length === 0)).toEqual([]);
  });
});
