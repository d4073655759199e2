// The course enrollment email end to end: the reference server sends it over SMTP (nodemailer) to
// the bundled run's sink (smtp-server), whose Mailpit-style API lists it (src/families/intapi/mail-sink.ts).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMailSink, subjectOf, type MailSink } from '../../../src/families/intapi/mail-sink.js';
import { COURSE4, type Harness, startServer } from './_support.js';

const USER4 = '00000000-0000-4000-8000-000000000004';
const SESSION1 = '00000000-0000-4000-8000-000000000501';

async function messages(api: string): Promise<{ total: number; messages: { To: { Address: string }[]; Subject: string }[] }> {
  const res = await fetch(`${api}/api/v1/messages`);
  expect(res.status).toBe(200);
  return (await res.json()) as { total: number; messages: { To: { Address: string }[]; Subject: string }[] };
}

describe('mail', () => {
  let sink: MailSink;
  let h: Harness;
  beforeAll(async () => {
    sink = await startMailSink();
    // The harness's own mailer would replace SMTP: this server has none but the sink.
    h = await startServer({ families: { intapi: { smtp: sink.smtp, mailer: undefined } } });
  });
  afterAll(async () => {
    await h.close();
    await sink.close();
  });

  test('a re-enrollment reaches the sink once, to the learner, with the course in the subject', async () => {
    const path = `/users/${USER4}/enrollments/${COURSE4}/session/${SESSION1}`;
    expect((await h.call('POST', path)).status).toBe(200);
    expect((await messages(sink.api)).total).toBe(0);
    expect((await h.call('POST', `${path}?reEnroll=true`)).status).toBe(200);
    // Until the mail is in (the SMTP exchange runs beside this test), or two minutes on a loaded machine.
    for (const until = Date.now() + 120_000; sink.messages.length === 0 && Date.now() < until;) await new Promise((r) => setTimeout(r, 50));
    const listed = await messages(sink.api);
    expect(listed.total).toBe(1);
    expect(listed.messages[0]?.To).toEqual([{ Address: 'walter@example.com' }]);
    expect(listed.messages[0]?.Subject).toBe('Course enrollment: Excel for Analysts');
  });

  test('the API answers 404 elsewhere, and reads folded subjects', async () => {
    expect((await fetch(`${sink.api}/api/v2/nothing`)).status).toBe(404);
    expect(subjectOf('From: a@b\r\nSubject: Course\r\n enrollment\r\n\r\nSubject: body')).toBe('Course enrollment');
  });
});
